// Package interop tests Gatehouse against independent implementations
// of the protocols it speaks: zitadel/oidc's OpenID provider and
// virtualwebauthn's software authenticator. It is a module of its own so
// that those modules stay out of the library's go.mod.
package interop

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/go-jose/go-jose/v4"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// app is a site using Gatehouse, served on loopback.
type app struct {
	srv *httptest.Server
	h   *gatehouse.Handler
	url string
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
	if len(cfg.Secret) == 0 {
		cfg.Secret = []string{testSecret}
	}
	if cfg.URL == "" {
		cfg.URL = base + "/auth"
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 5 * time.Second}
	}
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
	return &app{srv: srv, h: h, url: base}
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

// browser keeps cookies and follows redirects one at a time, like a
// browser with a cookie jar.
type browser struct {
	t    *testing.T
	c    *http.Client
	hops []string
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(req *http.Request) *http.Response {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp
}

// follow follows redirects from resp and returns the last response.
func (b *browser) follow(resp *http.Response) *http.Response {
	b.t.Helper()
	for i := 0; i < 10 && resp.StatusCode >= 300 && resp.StatusCode < 400; i++ {
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if err != nil {
			b.t.Fatal(err)
		}
		resp.Body.Close()
		b.hops = append(b.hops, loc.String())
		resp = b.get(loc.String())
	}
	return resp
}

func (b *browser) get(u string) *http.Response {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return b.do(req)
}

func (b *browser) post(u string, form url.Values) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// getJSON GETs u and decodes its JSON answer into v.
func (b *browser) getJSON(u string, v any) *http.Response {
	b.t.Helper()
	resp := b.get(u)
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		b.t.Fatalf("GET %s: %v", u, err)
	}
	return resp
}

func (b *browser) csrf(a *app) string {
	b.t.Helper()
	var v struct{ CSRFToken string }
	if b.getJSON(a.url+"/auth/csrf", &v); len(v.CSRFToken) != 64 {
		b.t.Fatalf("csrf token %q", v.CSRFToken)
	}
	return v.CSRFToken
}

// signIn posts the sign-in form of provider and follows the flow to its
// end, returning the final response and its body.
func (b *browser) signIn(a *app, provider, callbackURL string) (*http.Response, string) {
	b.t.Helper()
	resp := b.post(a.url+"/auth/signin/"+provider, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {callbackURL}})
	if resp.StatusCode != http.StatusSeeOther {
		b.t.Fatalf("sign-in POST answered %d, want 303", resp.StatusCode)
	}
	resp = b.follow(resp)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

func (b *browser) session(a *app) map[string]any {
	var s map[string]any
	b.getJSON(a.url+"/auth/session", &s)
	return s
}

// userID returns the id of the session's user, or "" without a session.
func (b *browser) userID(a *app) string {
	u, _ := b.session(a)["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

// signOut signs b out, or fails the test.
func (b *browser) signOut(a *app) {
	b.t.Helper()
	resp := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/" {
		b.t.Fatalf("sign-out answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if s := b.session(a); s != nil {
		b.t.Fatalf("session after sign-out = %v", s)
	}
}

// request is a request to the site carrying b's cookies, as an
// application handler would see it.
func (b *browser) request(a *app) *http.Request {
	r := httptest.NewRequest(http.MethodGet, a.url+"/reports", nil)
	u, _ := url.Parse(a.url)
	for _, c := range b.c.Jar.Cookies(u) {
		r.AddCookie(c)
	}
	return r
}

// plantCookie copies the attacker's cookie whose name ends in suffix into
// the victim's browser, as cookie tossing would.
func plantCookie(t *testing.T, a *app, attacker, victim *browser, suffix string) {
	t.Helper()
	u, _ := url.Parse(a.url)
	for _, c := range attacker.c.Jar.Cookies(u) {
		if strings.HasSuffix(c.Name, suffix) {
			victim.c.Jar.SetCookies(u, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/"}})
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

// newRSAKey makes a private JWK with a kid.
func newRSAKey(t *testing.T, kid string) jose.JSONWebKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid}
}

// publicSet is the set of the public halves of keys.
func publicSet(keys ...jose.JSONWebKey) jose.JSONWebKeySet {
	var set jose.JSONWebKeySet
	for _, k := range keys {
		set.Keys = append(set.Keys, k.Public())
	}
	return set
}
