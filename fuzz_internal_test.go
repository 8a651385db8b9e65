package gatehouse

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
)

// FuzzSessionDecode: no input panics the session decoder, and nothing but
// a token this codec sealed opens.
func FuzzSessionDecode(f *testing.F) {
	c, err := newSessionCodec([]string{"fuzz-secret-fuzz-secret-fuzz-secret-00"}, "authjs.session-token")
	if err != nil {
		f.Fatal(err)
	}
	good, _ := c.Encode(Token{Subject: "u", Expires: time.Now().Add(time.Hour).Unix()})
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
		if err != nil && !errors.Is(err, sessioncookie.ErrInvalid) {
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

// FuzzCallbackParams: the callback's parameter reader never panics and
// never returns a parameter twice.
func FuzzCallbackParams(f *testing.F) {
	f.Add("GET", "code=a&state=b&iss=c", "")
	f.Add("POST", "", "code=a&code=b")
	f.Add("POST", "", "%zz=%")
	f.Fuzz(func(t *testing.T, method, query, body string) {
		if method != "GET" && method != "POST" {
			method = "GET"
		}
		r := httptest.NewRequest(method, "http://app/auth/callback/x", strings.NewReader(body))
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		v, err := httpx.CallbackParams(r)
		if err != nil {
			return
		}
		for k, vs := range v {
			if len(vs) != 1 {
				t.Fatalf("parameter %q returned %d times", k, len(vs))
			}
		}
		// decode(encode(v)) == v.
		if back, err := url.ParseQuery(v.Encode()); err != nil || !reflect.DeepEqual(back, v) && len(v) > 0 {
			t.Fatalf("parameters %v re-encode to %v (%v)", v, back, err)
		}
	})
}
