package rp

import (
	"net/http"
	"testing"
	"time"
)

// TestProviderClient: the zero Config.ProviderTimeout is 10 seconds; a
// given client keeps its own timeout unless ProviderTimeout is set, and
// never goes without one; the given client itself is not modified.
func TestProviderClient(t *testing.T) {
	own := &http.Client{Timeout: 3 * time.Second}
	none := &http.Client{}
	for _, tc := range []struct {
		name    string
		given   *http.Client
		timeout time.Duration
		want    time.Duration
	}{
		{"default", nil, 0, 10 * time.Second},
		{"default, configured", nil, 2 * time.Second, 2 * time.Second},
		{"given keeps its own", own, 0, 3 * time.Second},
		{"given, configured", own, time.Second, time.Second},
		{"given without timeout", none, 0, 10 * time.Second},
	} {
		c, d := HTTPClient(tc.given, tc.timeout)
		if c.Timeout != tc.want || d != tc.want {
			t.Errorf("%s: client timeout %s, per-call %s; want %s", tc.name, c.Timeout, d, tc.want)
		}
		if tc.given != nil && c == tc.given {
			t.Errorf("%s: the given client was returned as is", tc.name)
		}
	}
	if own.Timeout != 3*time.Second || none.Timeout != 0 {
		t.Fatal("the given clients were modified")
	}
	if c, _ := HTTPClient(nil, 0); c.CheckRedirect == nil {
		t.Fatal("the default client follows redirects")
	}
}
