// Package interop tests Gatehouse against independent implementations
// of the protocols it speaks: zitadel/oidc's OpenID provider and
// virtualwebauthn's software authenticator. It is a module of its own so
// that those modules stay out of the library's go.mod.
package interop

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// app is a site using Gatehouse, served on loopback.
type app struct {
	srv  *httptest.Server
	h    *gatehouse.Handler
	url  string
	auth string // the Handler's Config.URL
}

// listen listens on a free loopback port, or fails the test.
func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// serveSite serves a site using Gatehouse (cfg, with Secret, URL and
// HTTPClient filled in when empty) on ln, at base (by default
// http://{ln's address}): the auth routes, a /private page that says
// hello to the signed-in user, and a home page.
func serveSite(t *testing.T, ln net.Listener, base string, cfg gatehouse.Config) *app {
	t.Helper()
	if base == "" {
		base = "http://" + ln.Addr().String()
	}
	sitetest.Defaults(&cfg, base, testSecret)
	h, err := gatehouse.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/private", h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	srv := httptest.NewUnstartedServer(h.Middleware(mux))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return &app{srv: srv, h: h, url: base, auth: cfg.URL}
}

// devProvider is authtest's in-process OpenID provider, auto-approving,
// as the provider "dev" of a Config.
func devProvider(t *testing.T) providers.Provider {
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(op.Close)
	return providers.OAuthConfig[profile.Claims]{
		ID: "dev", Name: "Development", Type: providers.TypeOIDC,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
	}
}

// browser is a sitetest.Browser with the steps through the site's
// routes (userID, signOut …) as methods.
type browser struct{ *sitetest.Browser }

func newBrowser(t *testing.T) *browser { return &browser{sitetest.NewBrowser(t)} }

// userID returns the id of the session's user, or "" without a session.
func (b *browser) userID(a *app) string {
	u, _ := b.Session(a.auth)["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

// signOut signs b out, or fails the test.
func (b *browser) signOut(a *app) {
	b.T.Helper()
	resp := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.CSRF(a.auth)}, "callbackUrl": {"/"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/" {
		b.T.Fatalf("sign-out answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if s := b.Session(a.auth); s != nil {
		b.T.Fatalf("session after sign-out = %v", s)
	}
}

// request is a request to the site carrying b's cookies, as an
// application handler would see it.
func (b *browser) request(a *app) *http.Request { return b.Request(a.url, a.url+"/reports") }

// plantCookie copies the attacker's cookie whose name ends in suffix into
// the victim's browser, as cookie tossing would.
func plantCookie(t *testing.T, a *app, attacker, victim *browser, suffix string) {
	t.Helper()
	u, _ := url.Parse(a.url)
	for _, c := range attacker.Client.Jar.Cookies(u) {
		if strings.HasSuffix(c.Name, suffix) {
			victim.Client.Jar.SetCookies(u, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/"}})
			return
		}
	}
	t.Fatalf("the attacker's browser holds no cookie named *%s", suffix)
}

// setsSession reports whether resp sets a session cookie.
func setsSession(resp *http.Response) bool {
	for _, c := range resp.Cookies() {
		if strings.Contains(c.Name, "session-token") && c.Value != "" {
			return true
		}
	}
	return false
}
