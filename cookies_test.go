package gatehouse_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestCookieAttributes (ASVS 3.3.1-3.3.4; RFC 6265bis cookie prefixes): on https
// every cookie is HttpOnly, Secure, Path=/, SameSite=Lax, without Domain,
// and by default has the __Host- prefix, which no sibling subdomain or
// plain-http page can set (cookie tossing); with AuthJSCookieNames the
// names are Auth.js's (the CSRF cookie __Host-, the others __Secure-).
// Check cookies live at most 15 minutes.
func TestCookieAttributes(t *testing.T) {
	for _, authjs := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "AuthJSCookieNames"}[authjs], func(t *testing.T) {
			a, b := newTLSApp(t, func(c *gatehouse.Config) { c.AuthJSCookieNames = authjs }) // authjs_interop_test.go
			seen := map[string]*http.Cookie{}
			record := func(resp *http.Response) {
				for _, c := range resp.Cookies() {
					if c.MaxAge >= 0 {
						seen[c.Name] = c
					}
				}
			}
			resp := b.get(a.url + "/auth/csrf")
			record(resp)
			resp.Body.Close()
			resp = b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
			record(resp)
			cb := b.get(resp.Header.Get("Location"))
			resp = b.get(cb.Header.Get("Location"))
			record(resp)
			if loc := resp.Header.Get("Location"); loc != a.url+"/private" {
				t.Fatalf("sign-in over https went to %q", loc)
			}
			p := "__Host-"
			if authjs {
				p = "__Secure-"
			}
			want := map[string]time.Duration{
				"__Host-authjs.csrf-token": 0,
				p + "gatehouse.checks":     15 * time.Minute, // PKCE verifier, state and nonce
				p + "authjs.callback-url":  0,
				p + "authjs.session-token": 30 * 24 * time.Hour,
			}
			for name, maxAge := range want {
				c, ok := seen[name]
				if !ok {
					t.Errorf("no cookie %s (saw %v)", name, keys(seen))
					continue
				}
				if !c.Secure || !c.HttpOnly || c.Path != "/" || c.Domain != "" || c.SameSite != http.SameSiteLaxMode {
					t.Errorf("%s: Secure %v HttpOnly %v Path %q Domain %q SameSite %v", name, c.Secure, c.HttpOnly, c.Path, c.Domain, c.SameSite)
				}
				if got := time.Duration(c.MaxAge) * time.Second; got > maxAge || (maxAge > 0 && got < maxAge-time.Minute) {
					t.Errorf("%s: Max-Age %s, want %s", name, got, maxAge)
				}
			}
			for name := range seen {
				if !strings.HasPrefix(name, p) && !strings.HasPrefix(name, "__Host-") {
					t.Errorf("cookie %s has not the %s prefix", name, p)
				}
			}
		})
	}
}

func keys(m map[string]*http.Cookie) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestSecretRotation: with AUTH_SECRET "new,old", sessions sealed with the
// old secret still open, new sessions are sealed with the new one, and
// once the old secret is dropped its sessions are gone.
func TestSecretRotation(t *testing.T) {
	const oldSecret, newSecret = "old-secret-old-secret-old-secret-0001", "new-secret-new-secret-new-secret-0002"
	signInWith := func(secrets ...string) string {
		a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Secret = secrets })
		b := newBrowser(t)
		resp, body := b.signIn(a, "dev", "/private")
		expectSignedIn(t, a, b, resp, body)
		u, _ := url.Parse(a.url)
		for _, c := range b.c.Jar.Cookies(u) {
			if c.Name == "authjs.session-token" {
				return c.Value
			}
		}
		t.Fatal("no session cookie")
		return ""
	}
	opens := func(cookie string, secrets ...string) bool {
		h, err := gatehouse.New(gatehouse.Config{Secret: secrets, URL: "http://127.0.0.1/auth", Providers: []providers.Provider{
			providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "D", Type: providers.TypeOIDC, Issuer: "http://127.0.0.1:1", ClientID: "c"}}})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/auth/session", nil)
		req.AddCookie(&http.Cookie{Name: "authjs.session-token", Value: cookie})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return strings.Contains(rec.Body.String(), "alice@example.com")
	}
	old := signInWith(oldSecret)
	if !opens(old, newSecret, oldSecret) {
		t.Fatal("a session sealed with the old secret does not open after rotation")
	}
	if opens(old, newSecret) {
		t.Fatal("a session sealed with a dropped secret still opens")
	}
	fresh := signInWith(newSecret, oldSecret)
	if !opens(fresh, newSecret) || opens(fresh, oldSecret) {
		t.Fatal("a new session is not sealed with the newest secret")
	}
}

// TestSecretRequired: outside Development mode New refuses a missing or
// short secret; in Development mode it starts.
func TestSecretRequired(t *testing.T) {
	p := []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "D", Type: providers.TypeOIDC, Issuer: "http://127.0.0.1:1", ClientID: "c"}}
	for _, s := range [][]string{nil, {""}, {"short"}, {testSecret, strings.Repeat("x", 31)}} {
		if _, err := gatehouse.New(gatehouse.Config{Secret: s, Providers: p}); err == nil {
			t.Errorf("secret %q accepted", s)
		}
		if _, err := gatehouse.New(gatehouse.Config{Secret: s, Providers: p, Development: true}); err != nil {
			t.Errorf("Development mode refused secret %q: %v", s, err)
		}
	}
}

// TestMiddlewareCSRFCookie: the Middleware gives a browser without a
// CSRF cookie one on the application's pages (their forms need it), but
// not on the handler's own routes, which make one only when they need it:
// a script polling {base}/session gets no cookie per request.
func TestMiddlewareCSRFCookie(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	sets := func(path string) bool {
		resp, err := http.Get(a.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for _, c := range resp.Cookies() {
			if c.Name == "authjs.csrf-token" {
				return true
			}
		}
		return false
	}
	if !sets("/") {
		t.Error("an application page gave no CSRF cookie")
	}
	if sets("/auth/session") {
		t.Error("GET /auth/session set a CSRF cookie")
	}
	if !sets("/auth/csrf") || !sets("/auth/signin") {
		t.Error("the handler's CSRF route or sign-in page gave no CSRF cookie")
	}
}
