package bearer

import (
	"context"
	"net/http/httptest"
	"testing"
)

// FuzzVerifyRequest: whatever a client puts in the Authorization and DPoP
// headers, VerifyRequest does not panic, and a token it accepts carries
// the claims the issuer signed.
func FuzzVerifyRequest(f *testing.F) {
	is := newTestIssuer(f)
	c := newClock()
	v := is.verifier(f, c, nil)
	good := is.token(f, "es1", c.Now(), nil)
	if _, err := v.Verify(context.Background(), good); err != nil {
		f.Fatal(err)
	}
	f.Add("Bearer "+good, "")
	f.Add("DPoP "+good, good)
	f.Add("Bearer "+good[:len(good)-3], "")
	f.Add("bearer a.b.c", "a.b.c")
	f.Fuzz(func(t *testing.T, authorization, dpop string) {
		r := httptest.NewRequest("GET", "https://api.example/x", nil)
		r.Header.Set("Authorization", authorization)
		if dpop != "" {
			r.Header.Set("DPoP", dpop)
		}
		tok, err := v.VerifyRequest(r)
		if err != nil {
			return
		}
		if tok.Subject != "user-1" || tok.Issuer != is.srv.URL || !tok.HasScope("project:read") {
			t.Fatalf("accepted %q as %+v", authorization, tok)
		}
	})
}
