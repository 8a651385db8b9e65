package gatehouse_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// TestRetryKeepsCallbackURL: after a failure the visitor can retry from
// the sign-in page (a wrong password, a sign-in cancelled at the
// provider), the sign-in page still knows where they were going, so its
// forms post that callbackUrl again.
func TestRetryKeepsCallbackURL(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Fields: []credentials.Field{{Name: "password", Type: "password"}},
			Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
				return nil, credentials.ErrInvalid
			},
		})
	})
	want := "/private"

	// A wrong password.
	b := newBrowser(t)
	resp := b.post(a.url+"/auth/callback/credentials", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}, "password": {"x"}})
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc == nil || loc.Path != "/auth/signin" || loc.Query().Get("error") != "CredentialsSignin" || loc.Query().Get("callbackUrl") != want {
		t.Errorf("wrong password: sent to %q, want the sign-in page with error=CredentialsSignin and callbackUrl=%s", resp.Header.Get("Location"), want)
	}

	// A sign-in cancelled at the provider.
	a.op.SetFaults(authtest.Faults{AuthorizeAccessDenied: true})
	b = newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/auth/signin" || resp.Request.URL.Query().Get("callbackUrl") != want {
		t.Errorf("cancelled: landed on %s, want the sign-in page with callbackUrl=%s", resp.Request.URL, want)
	}
	if hidden := `<input type="hidden" name="callbackUrl" value="` + a.url + want + `">`; !strings.Contains(body, hidden) {
		t.Errorf("the sign-in page's forms lack %s", hidden)
	}

	// Only same-origin destinations are carried.
	b = newBrowser(t)
	resp = b.post(a.url+"/auth/callback/credentials", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"https://evil.example/x"}, "password": {"x"}})
	resp.Body.Close()
	if loc, _ := url.Parse(resp.Header.Get("Location")); loc == nil || loc.Path != "/auth/signin" || loc.Query().Has("callbackUrl") {
		t.Errorf("foreign callbackUrl: sent to %q, want the sign-in page without callbackUrl (home is the default)", resp.Header.Get("Location"))
	}
}
