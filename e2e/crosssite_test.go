package e2e

import (
	"context"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestCrossSiteFormPostRefused signs Alice in, then sends her browser to
// an attacker's page on another loopback origin that auto-submits a form
// to the example's sign-in or sign-out route, as a CSRF attack would. Real
// Chromium marks the POST with Sec-Fetch-Site and Origin; the library
// refuses it with MissingCSRF, code cross_site (csrf.go sameOrigin), and
// Alice's session is untouched.
//
// Two attacker origins:
//
//   - http://127.0.0.1:<other port>, the same site as the example (a
//     site ignores the port). Cookies ignore the port as well, so the
//     attacker's server receives Alice's CSRF cookie, puts its token in the
//     form, and Chromium sends the cookie with the POST: a matching pair.
//     Only the origin check stops this one; without it the sign-out
//     signs Alice out and the sign-in starts a login for the attacker.
//   - http://localhost:<port>, another site: Chromium sends no SameSite=Lax
//     cookie with the POST, so the CSRF token alone would refuse it too,
//     but with code csrf; cross_site shows the origin check answered.
func TestCrossSiteFormPostRefused(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)
	attacker := newAttackerSite(t)

	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	wantStatus(t, signInAsAlice(t, ctx), 200)
	wantSignedInAsAlice(t, ctx, base)

	sibling := attacker.URL // http://127.0.0.1:<port>
	u, _ := url.Parse(attacker.URL)
	otherSite := "http://localhost:" + u.Port()

	for _, tc := range []struct {
		name, origin, route string
		stealsToken         bool // the attacker's server sees Alice's CSRF cookie
	}{
		{"sign-out from a sibling port", sibling, "/auth/signout", true},
		{"sign-in from a sibling port", sibling, "/auth/signin/development", true},
		{"sign-out from another site", otherSite, "/auth/signout", false},
		{"sign-in from another site", otherSite, "/auth/signin/development", false},
	} {
		target := base + tc.route
		attack := tc.origin + "/attack?" + url.Values{"action": {target}, "callbackUrl": {tc.origin + "/won"}}.Encode()

		// The library's answer to the forged POST is a redirect; wait for
		// it, whatever it says, so that a broken defence fails here at
		// once rather than at the browser's time limit.
		ev, err := chromedp.Run(ctx, chromedp.WaitEvent(network.RequestWillBeSent, func(ev network.EventRequestWillBeSent) bool {
			return ev.RedirectResponse != nil && ev.RedirectResponse.URL == target
		}, chromedp.Navigate(attack)))
		if err != nil {
			t.Fatalf("%s: waiting for the answer to the forged POST: %v", tc.name, err)
		}
		if got := attacker.tokenSeen(); (got != "") != tc.stealsToken {
			t.Fatalf("%s: the attacker's server saw CSRF token %q; the test expects it to see one: %v", tc.name, got, tc.stealsToken)
		}
		loc, err := url.Parse(header(ev.RedirectResponse.Headers, "Location"))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		loc = (&url.URL{Scheme: "http", Host: strings.TrimPrefix(base, "http://")}).ResolveReference(loc)
		q := loc.Query()
		if loc.Path != "/auth/signin" || q.Get("error") != "MissingCSRF" || q.Get("code") != "cross_site" {
			t.Fatalf("%s: the forged POST to %s answered %d to %s, want the sign-in page with MissingCSRF, code cross_site",
				tc.name, tc.route, ev.RedirectResponse.Status, loc)
		}
		if q.Has("callbackUrl") {
			t.Errorf("%s: the refusal keeps the attacker's callbackUrl: %s", tc.name, loc)
		}

		// What Alice sees: the sign-in page on the example's origin with
		// the banner, not the attacker's page.
		const banner = "The sign-in form had expired. Reload the page and try again."
		wantText(t, ctx, `[role="alert"]`, banner)
		if here := location(t, ctx); here.Host != loc.Host || here.Path != "/auth/signin" {
			t.Errorf("%s: the browser is on %s", tc.name, here)
		}
		wantSignedInAsAlice(t, ctx, base)
	}

	// The refusals were the origin check, not a broken browser: the
	// example's own sign-out form still signs out.
	load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	mustBody(t, ctx, "You are not signed in.")
}

// wantSignedInAsAlice opens the example's home page and fails the test
// unless it greets Alice.
func wantSignedInAsAlice(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	load(t, ctx, "opening the home page", chromedp.Navigate(base+"/"))
	mustBody(t, ctx, "Signed in as Alice Example")
}

// header returns the value of the header name in h, whose keys may be in
// any case.
func header(h network.Headers, name string) string {
	for k, v := range h {
		if s, ok := v.(string); ok && strings.EqualFold(k, name) {
			return s
		}
	}
	return ""
}

// attackerSite is a second web site on loopback: GET /attack serves a page
// that auto-submits a POST form to the URL in ?action, with the
// ?callbackUrl given and the token of the example's CSRF cookie when the
// browser sent that cookie here (it does when this site is reached on
// 127.0.0.1, the example's host: cookies ignore the port).
type attackerSite struct {
	*httptest.Server
	mu    sync.Mutex
	token string // the token of the last /attack request's CSRF cookie
}

// attackPage auto-submits its form on load, with no click by the visitor.
var attackPage = template.Must(template.New("attack").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>You won a prize</title></head>
<body onload="document.forms[0].submit()">
<form method="post" action="{{.Action}}">
<input type="hidden" name="csrfToken" value="{{.Token}}">
<input type="hidden" name="callbackUrl" value="{{.CallbackURL}}">
</form>
</body></html>`))

func newAttackerSite(t *testing.T) *attackerSite {
	t.Helper()
	a := &attackerSite{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/attack" {
			http.NotFound(w, r)
			return
		}
		// The example's CSRF cookie on http: "token|mac" (Auth.js's
		// name and format; __Host- only on https).
		token := ""
		if c, err := r.Cookie("authjs.csrf-token"); err == nil {
			token, _, _ = strings.Cut(c.Value, "|")
		}
		a.mu.Lock()
		a.token = token
		a.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = attackPage.Execute(w, map[string]string{
			"Action": r.URL.Query().Get("action"), "Token": token, "CallbackURL": r.URL.Query().Get("callbackUrl"),
		})
	}))
	t.Cleanup(a.Close)
	return a
}

// tokenSeen returns the CSRF token the last attack page was served with.
func (a *attackerSite) tokenSeen() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.token
}
