package password

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// rangeServer is a Pwned Passwords stand-in that knows the given
// passwords with their counts and pads its answers with count-0 lines.
func rangeServer(t *testing.T, known map[string]int) (*httptest.Server, *[]string) {
	t.Helper()
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prefix := strings.TrimPrefix(r.URL.Path, "/range/")
		asked = append(asked, prefix)
		if r.Header.Get("Add-Padding") != "true" {
			t.Error("request without Add-Padding")
		}
		fmt.Fprintf(w, "%035X:0\r\n", 1) // padding
		for pw, count := range known {
			sum := sha1.Sum([]byte(pw))
			digits := strings.ToUpper(hex.EncodeToString(sum[:]))
			if digits[:5] == prefix {
				fmt.Fprintf(w, "%s:%d\r\n", strings.ToLower(digits[5:]), count)
			}
		}
		fmt.Fprintf(w, "%035X:0", 2)
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

func TestRangeAPI(t *testing.T) {
	srv, asked := rangeServer(t, map[string]int{"password": 9545824, "padded-only": 0})
	hook := RangeAPI(srv.Client(), srv.URL+"/range/")
	ctx := context.Background()
	tests := []struct {
		password string
		want     bool
	}{
		{"password", true},
		{"padded-only", false},
		{"correct horse battery staple", false},
	}
	for _, tt := range tests {
		got, err := hook(ctx, tt.password)
		if err != nil || got != tt.want {
			t.Errorf("hook(%q) = %v, %v; want %v", tt.password, got, err, tt.want)
		}
	}
	// Only the five-digit prefix of the SHA-1 leaves the process:
	// "password" hashes to 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8.
	if len(*asked) != len(tests) || (*asked)[0] != "5BAA6" {
		t.Errorf("server was asked %q", *asked)
	}
	for _, prefix := range *asked {
		if len(prefix) != 5 {
			t.Errorf("request sent %q, want five hex digits", prefix)
		}
	}

	// Wired into a Policy.
	p := Policy{Breached: hook}
	if err := p.Check(ctx, "password"); !errors.Is(err, ErrBreached) {
		t.Errorf("Policy.Check(breached) = %v, want ErrBreached", err)
	}
}

func TestRangeAPIFailures(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := strings.Repeat("0", 35) + ":0\r\n"
		for range maxRangeResponse/len(line) + 1 {
			fmt.Fprint(w, line)
		}
	}))
	defer huge.Close()
	for name, url := range map[string]string{"status": down.URL + "/", "too large": huge.URL + "/"} {
		if got, err := RangeAPI(nil, url)(context.Background(), "password"); err == nil || got {
			t.Errorf("%s: hook = %v, %v; want an error", name, got, err)
		}
	}
	// A failing hook makes the policy fail closed.
	if err := (Policy{Breached: RangeAPI(nil, down.URL+"/")}).Check(context.Background(), "password"); err == nil {
		t.Error("Policy.Check with the range API down = nil, want an error")
	}
}
