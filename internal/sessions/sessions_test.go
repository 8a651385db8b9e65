package sessions

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/session"
)

// WriteJSON(nil) writes what httpx.WriteJSON writes for nil, headers
// included (Cache-Control: no-store).
func TestWriteNoSession(t *testing.T) {
	got, want := httptest.NewRecorder(), httptest.NewRecorder()
	(&Manager{}).WriteJSON(got, nil)
	httpx.WriteJSON(want, http.StatusOK, nil)
	if want.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("httpx.WriteJSON's headers: %v", want.Header())
	}
	if got.Code != want.Code || !reflect.DeepEqual(got.Header(), want.Header()) || got.Body.String() != want.Body.String() {
		t.Errorf("got %d %v %q, want %d %v %q", got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
	}
}

// FuzzSessionDecode: no input panics the session decoder, and nothing but
// a token this codec sealed opens.
func FuzzSessionDecode(f *testing.F) {
	c, err := NewCodec([]string{"fuzz-secret-fuzz-secret-fuzz-secret-00"}, "authjs.session-token")
	if err != nil {
		f.Fatal(err)
	}
	good, _ := c.Encode(session.Token{Subject: "u", Expires: time.Now().Add(time.Hour).Unix()})
	f.Add(good)
	f.Add("")
	f.Add("a.b.c.d.e")
	f.Add(strings.Repeat(".", 1000))
	f.Add(`eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.`)
	f.Fuzz(func(t *testing.T, s string) {
		// Each fuzz worker seals its own "good" (random IV); the only
		// token any of them sealed has subject "u".
		tok, err := c.Decode(s, time.Now())
		if err == nil && tok.Subject != "u" {
			t.Fatalf("decoded a forged token %q to %+v", s, tok)
		}
		if err != nil && !errors.Is(err, cookies.ErrInvalid) {
			t.Fatalf("untyped refusal %v", err)
		}
		if err == nil {
			// decode(encode(x)) == x.
			re, err := c.Encode(tok)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := c.Decode(re, time.Now()); err != nil || !reflect.DeepEqual(back, tok) {
				t.Fatalf("re-sealed token opened to %+v, %v; want %+v", back, err, tok)
			}
		}
	})
}
