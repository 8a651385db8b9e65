package gatehouse_test

import (
	"encoding/json"
	"errors"
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
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// app is a site using Gatehouse, served on loopback, with an in-process
// OpenID provider.
type app struct {
	t   *testing.T
	op  *authtest.Server
	srv *httptest.Server
	h   *gatehouse.Handler
	url string
}

func newApp(t *testing.T, opOpts authtest.Options, mutate func(*gatehouse.Config)) *app {
	t.Helper()
	opOpts.AutoApprove = true
	op := newOP(t, opOpts)
	return startApp(t, op, mutate)
}

// startApp serves a site using Gatehouse on loopback, signing in with op.
func startApp(t *testing.T, op *authtest.Server, mutate func(*gatehouse.Config)) *app {
	t.Helper()
	return serveApp(t, op, mutate, false)
}

// serveApp is startApp, over https when tls is set.
func serveApp(t *testing.T, op *authtest.Server, mutate func(*gatehouse.Config), tls bool) *app {
	t.Helper()
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()
	if tls {
		base = "https://" + ln.Addr().String()
	}
	cfg := gatehouse.Config{
		Secret:     []string{testSecret},
		URL:        base + "/auth",
		Providers:  []providers.Provider{devProvider(op)},
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h := newHandler(t, cfg)
	srv := serveOn(t, ln, h.Middleware(siteMux(h)), tls)
	return &app{t: t, op: op, srv: srv, h: h, url: base}
}

// devProvider is op as the provider "dev" of a Config.
func devProvider(op *authtest.Server) providers.Provider {
	return providers.OAuthConfig[profile.Claims]{
		ID: "dev", Name: "Development", Type: providers.TypeOIDC,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
	}
}

// newHandler is gatehouse.New, failing the test on an error.
func newHandler(t testing.TB, cfg gatehouse.Config) *gatehouse.Handler {
	t.Helper()
	h, err := gatehouse.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// siteMux is the test site: the auth routes, a /private page that says
// hello to the signed-in user, and a home page.
func siteMux(h *gatehouse.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/private", h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	return mux
}

// serveOn serves handler on ln (over TLS when tls is set) until the test
// ends.
func serveOn(t testing.TB, ln net.Listener, handler http.Handler, tls bool) *httptest.Server {
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener.Close()
	srv.Listener = ln
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
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
		req, _ := http.NewRequest(http.MethodGet, loc.String(), nil)
		resp = b.do(req)
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

func (b *browser) csrf(a *app) string {
	b.t.Helper()
	resp := b.get(a.url + "/auth/csrf")
	defer resp.Body.Close()
	var v struct{ CSRFToken string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || len(v.CSRFToken) != 64 {
		b.t.Fatalf("csrf: %v %q", err, v.CSRFToken)
	}
	return v.CSRFToken
}

// signIn runs the whole flow and returns the final response and its body.
func (b *browser) signIn(a *app, provider, callbackURL string) (*http.Response, string) {
	b.t.Helper()
	return b.postSignIn(a.url+"/auth/signin/"+provider, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {callbackURL}})
}

func (b *browser) session(a *app) map[string]any {
	b.t.Helper()
	resp := b.get(a.url + "/auth/session")
	defer resp.Body.Close()
	var s map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		b.t.Fatal(err)
	}
	return s
}

func TestSignInOIDC(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.hops)
	}
	s := b.session(a)
	user, _ := s["user"].(map[string]any)
	if user["email"] != "alice@example.com" || user["name"] != "Alice" || user["id"] != "dev:alice" {
		t.Fatalf("session = %v", s)
	}
	exp, err := time.Parse(time.RFC3339Nano, s["expires"].(string))
	if err != nil || exp.Before(time.Now().Add(29*24*time.Hour)) {
		t.Fatalf("expires = %v (%v)", s["expires"], err)
	}

	// The authorization request carried PKCE S256, state and nonce, and
	// the token request repeated the redirect_uri with the verifier.
	var sawAuth, sawToken bool
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			q := r.Query
			sawAuth = q.Get("code_challenge_method") == "S256" && len(q.Get("code_challenge")) == 43 &&
				len(q.Get("state")) == 43 && len(q.Get("nonce")) == 43 && q.Get("redirect_uri") == a.url+"/auth/callback/dev"
		case authtest.EndpointToken:
			sawToken = r.Form.Get("redirect_uri") == a.url+"/auth/callback/dev" && len(r.Form.Get("code_verifier")) == 43
		}
	}
	if !sawAuth || !sawToken {
		t.Fatalf("authorization request ok=%v, token request ok=%v: %+v", sawAuth, sawToken, a.op.Requests())
	}

	// Sign out with CSRF ends the session.
	out := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
	if out.StatusCode != http.StatusSeeOther || out.Header.Get("Location") != a.url+"/" {
		t.Fatalf("sign-out answered %d to %q", out.StatusCode, out.Header.Get("Location"))
	}
	if s := b.session(a); s != nil {
		t.Fatalf("session after sign-out = %v", s)
	}
	if r := b.get(a.url + "/private"); r.StatusCode != http.StatusFound || !strings.Contains(r.Header.Get("Location"), "/auth/signin?callbackUrl=%2Fprivate") {
		t.Fatalf("protected page after sign-out: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
}

func TestSignOutNeedsCSRF(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	resp := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {"forged"}})
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=MissingCSRF") {
		t.Fatalf("sign-out with a forged token went to %q", loc)
	}
	if s := b.session(a); s == nil {
		t.Fatal("a forged sign-out ended the session")
	}
}

func TestSignInNeedsCSRF(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.csrf(a) // a valid cookie, but the form's token is not its own
	for _, tok := range []string{"", strings.Repeat("0", 64)} {
		resp := b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {tok}})
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/auth/signin?") || !strings.Contains(loc, "error=MissingCSRF") {
			t.Fatalf("token %q: went to %q", tok, loc)
		}
	}
	if n := len(a.op.Requests()); n != 0 {
		t.Fatalf("the provider was contacted %d times", n)
	}
}

// TestConformance runs the ID token and callback faults of the OpenID
// Foundation's relying-party tests: each must end on an error page with
// its specific code, without a session.
func TestConformance(t *testing.T) {
	cases := []struct {
		name       string
		faults     authtest.Faults
		errType    gatehouse.ErrorType
		code       string
		opts       authtest.Options
		errorRoute string
	}{
		{"rp-id_token-sig-none", authtest.Faults{IDTokenAlgNone: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-bad-sig-rs256", authtest.Faults{IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"rp-id_token-bad-sig-es256", authtest.Faults{IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{Alg: "ES256"}, "error"},
		{"hs256-with-public-key", authtest.Faults{IDTokenHS256PublicKey: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-kid-absent-multiple-jwks", authtest.Faults{IDTokenOmitKID: true, JWKSExtraKeys: 2, IDTokenForeignKey: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"unknown-kid", authtest.Faults{IDTokenUnknownKID: true}, gatehouse.InvalidIDToken, "signature", authtest.Options{}, "error"},
		{"rp-id_token-issuer-mismatch", authtest.Faults{IDTokenWrongIssuer: true}, gatehouse.InvalidIDToken, "issuer", authtest.Options{}, "error"},
		{"rp-id_token-aud", authtest.Faults{IDTokenWrongAudience: true}, gatehouse.InvalidIDToken, "audience", authtest.Options{}, "error"},
		{"azp-missing-with-several-aud", authtest.Faults{IDTokenExtraAudience: true, IDTokenOmitAZP: true}, gatehouse.InvalidIDToken, "azp_missing", authtest.Options{}, "error"},
		{"azp-wrong", authtest.Faults{IDTokenWrongAZP: true}, gatehouse.InvalidIDToken, "azp", authtest.Options{}, "error"},
		{"expired", authtest.Faults{IDTokenExpired: true}, gatehouse.InvalidIDToken, "expired", authtest.Options{}, "error"},
		{"exp-missing", authtest.Faults{IDTokenOmitExp: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
		{"rp-id_token-iat", authtest.Faults{IDTokenOmitIat: true}, gatehouse.InvalidIDToken, "iat_missing", authtest.Options{}, "error"},
		{"iat-in-future", authtest.Faults{IDTokenIatInFuture: true}, gatehouse.InvalidIDToken, "iat_future", authtest.Options{}, "error"},
		{"rp-id_token-sub", authtest.Faults{IDTokenOmitSub: true}, gatehouse.InvalidIDToken, "sub_missing", authtest.Options{}, "error"},
		{"rp-nonce-invalid", authtest.Faults{IDTokenWrongNonce: true}, gatehouse.InvalidIDToken, "nonce_mismatch", authtest.Options{}, "error"},
		{"rp-nonce-unless-code-flow (missing)", authtest.Faults{IDTokenOmitNonce: true}, gatehouse.InvalidIDToken, "nonce_missing", authtest.Options{}, "error"},
		{"at_hash-wrong", authtest.Faults{IDTokenWrongAtHash: true}, gatehouse.InvalidIDToken, "at_hash", authtest.Options{}, "error"},
		{"rp-userinfo-bad-sub-claim", authtest.Faults{UserinfoWrongSub: true}, gatehouse.UserinfoFailed, "sub_mismatch", authtest.Options{}, "error"},
		{"userinfo-500", authtest.Faults{UserinfoFail: true}, gatehouse.UserinfoFailed, "http_500", authtest.Options{}, "error"},
		{"rfc9207-iss-wrong", authtest.Faults{AuthorizeWrongIss: true}, gatehouse.InvalidCheck, "iss_mismatch", authtest.Options{}, "error"},
		{"rfc9207-iss-missing", authtest.Faults{AuthorizeOmitIss: true}, gatehouse.InvalidCheck, "iss_missing", authtest.Options{}, "error"},
		{"access-denied", authtest.Faults{AuthorizeAccessDenied: true}, gatehouse.OAuthCallbackError, "access_denied", authtest.Options{}, "signin"},
		{"token-invalid_grant", authtest.Faults{TokenInvalidGrant: true}, gatehouse.TokenExchangeFailed, "invalid_grant", authtest.Options{}, "error"},
		{"token-500", authtest.Faults{TokenServerError: true}, gatehouse.TokenExchangeFailed, "http_500", authtest.Options{}, "error"},
		{"token-html", authtest.Faults{TokenHTML: true}, gatehouse.TokenExchangeFailed, "", authtest.Options{}, "error"},
		{"token-huge", authtest.Faults{TokenHugeBody: true}, gatehouse.TokenExchangeFailed, "", authtest.Options{}, "error"},
		{"token-timeout", authtest.Faults{TokenDelay: 5 * time.Second}, gatehouse.TokenExchangeFailed, "timeout", authtest.Options{}, "error"},
		{"no-id_token", authtest.Faults{TokenOmitIDToken: true}, gatehouse.InvalidIDToken, "missing", authtest.Options{}, "error"},
		{"rp-discovery-issuer-not-matching-config", authtest.Faults{DiscoveryWrongIssuer: true}, gatehouse.ProviderUnavailable, "discovery", authtest.Options{}, "error"},
		{"jwks-500", authtest.Faults{JWKSFail: true}, gatehouse.InvalidIDToken, "", authtest.Options{}, "error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b, resp, _ := signInWithFaults(t, tc.opts, tc.faults)
			u := resp.Request.URL
			if u.Path != "/auth/"+tc.errorRoute || u.Query().Get("error") != string(tc.errType) {
				t.Fatalf("ended on %s (status %d), want /auth/%s?error=%s (hops %v)", u, resp.StatusCode, tc.errorRoute, tc.errType, b.hops)
			}
			if tc.code != "" && u.Query().Get("code") != tc.code {
				t.Fatalf("code = %q, want %q", u.Query().Get("code"), tc.code)
			}
			// Provider faults answer 502, refused checks 4xx: never a bare 500.
			if resp.StatusCode == http.StatusInternalServerError {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if s := b.session(a); s != nil {
				t.Fatalf("a session after %s: %v", tc.name, s)
			}
		})
	}
}

func TestCheckCookies(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	// Start in one browser, finish in another: the state/PKCE/nonce
	// cookies are missing (login CSRF, RFC 9700 §4.7).
	b1, b2 := newBrowser(t), newBrowser(t)
	resp := b1.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b1.csrf(a)}})
	authz := resp.Header.Get("Location")
	cb := b1.get(authz) // AutoApprove: straight to our callback
	callback := cb.Header.Get("Location")
	final := b2.follow(b2.get(callback))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "iss_missing" && !strings.HasSuffix(q.Get("code"), "cookie_missing") {
		t.Fatalf("cross-browser callback ended on %s", final.Request.URL)
	}

	// The right browser, with the state altered.
	u, _ := url.Parse(callback)
	q := u.Query()
	q.Set("state", q.Get("state")+"x")
	u.RawQuery = q.Encode()
	final = b1.follow(b1.get(u.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "state_mismatch" {
		t.Fatalf("altered state ended on %s", final.Request.URL)
	}
	// The cookies were single-use: replaying the genuine callback fails.
	final = b1.follow(b1.get(callback))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("replayed callback ended on %s", final.Request.URL)
	}
}

func TestRedirectPolicy(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	evil := []string{
		"https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)",
		"http://user@" + strings.TrimPrefix(a.url, "http://") + "@evil.example/", "/%2F%2Fevil.example",
		"http://" + strings.TrimPrefix(a.url, "http://") + ".evil.example/", "data:text/html,hi", "/\n/evil.example",
	}
	for _, cb := range evil {
		b := newBrowser(t)
		resp, _ := b.signIn(a, "dev", cb)
		if got := resp.Request.URL.String(); got != a.url+"/" {
			t.Errorf("callbackUrl %q landed on %q", cb, got)
		}
	}
	b := newBrowser(t)
	if resp, _ := b.signIn(a, "dev", a.url+"/private?x=1"); resp.Request.URL.String() != a.url+"/private?x=1" {
		t.Errorf("same-origin absolute callbackUrl landed on %s", resp.Request.URL)
	}
}

func TestRoutes(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp := b.get(a.url + "/auth/providers")
	var ps map[string]providers.AppProvider
	json.NewDecoder(resp.Body).Decode(&ps)
	resp.Body.Close()
	if p := ps["dev"]; p.Name != "Development" || p.Type != "oidc" || p.SigninURL != a.url+"/auth/signin/dev" || p.CallbackURL != a.url+"/auth/callback/dev" {
		t.Fatalf("providers = %+v", ps)
	}
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/auth/signin", 200},
		{"GET", "/auth/signout", 200},
		{"GET", "/auth/error?error=Configuration", 500},
		{"GET", "/auth/error?error=AccessDenied", 403},
		{"GET", "/auth/verify-request", 200},
		{"GET", "/auth/nonsense", 404},
		{"POST", "/auth/csrf", 405},
		{"GET", "/auth/signin/dev", 200},
	} {
		req, _ := http.NewRequest(tc.method, a.url+tc.path, nil)
		r := b.do(req)
		r.Body.Close()
		if r.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, r.StatusCode, tc.status)
		}
	}
	// Unknown provider: a specific error, not Configuration.
	resp = b.post(a.url+"/auth/signin/nope", url.Values{"csrfToken": {b.csrf(a)}})
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=UnknownProvider") {
		t.Fatalf("unknown provider went to %q", loc)
	}
	// X-Auth-Return-Redirect: JSON {url} instead of a redirect.
	req, _ := http.NewRequest("POST", a.url+"/auth/signin/dev", strings.NewReader(url.Values{"csrfToken": {b.csrf(a)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	r := b.do(req)
	var v struct{ URL string }
	json.NewDecoder(r.Body).Decode(&v)
	if r.StatusCode != 200 || !strings.HasPrefix(v.URL, a.op.Issuer()+"/authorize?") {
		t.Fatalf("X-Auth-Return-Redirect: %d %q", r.StatusCode, v.URL)
	}
}

func TestConfigErrors(t *testing.T) {
	ok := providers.OAuthConfig[profile.Claims]{ID: "x", Name: "X", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c"}
	cases := []struct {
		name     string
		cfg      gatehouse.Config
		provider string
		field    string
	}{
		{"no secret", gatehouse.Config{Providers: []providers.Provider{ok}}, "", "Secret"},
		{"short secret", gatehouse.Config{Secret: []string{"short"}, Providers: []providers.Provider{ok}}, "", "Secret"},
		{"no providers", gatehouse.Config{Secret: []string{testSecret}}, "", "Providers"},
		{"duplicate id", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{ok, ok}}, "x", "id"},
		{"missing client id", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{func() providers.OAuthConfig[profile.Claims] { c := ok; c.ClientID = ""; return c }()}}, "x", "clientId"},
		{"unknown check", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{func() providers.OAuthConfig[profile.Claims] { c := ok; c.Checks = []providers.Check{"magic"}; return c }()}}, "x", "checks"},
		{"nonce on oauth", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "o", Name: "O", Type: providers.TypeOAuth, ClientID: "c", Authorization: providers.AuthorizationEndpoint{URL: "https://a"}, Token: providers.TokenEndpoint{URL: "https://t"}, Userinfo: providers.UserinfoEndpoint[profile.Claims]{URL: "https://u"}, Checks: []providers.Check{providers.CheckNonce}}}}, "o", "checks"},
		{"no endpoints", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "o", Name: "O", Type: providers.TypeOAuth, ClientID: "c"}}}, "o", "authorization"},
		{"bad id", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{func() providers.OAuthConfig[profile.Claims] { c := ok; c.ID = "A B"; return c }()}}, "A B", "id"},
		{"http URL", gatehouse.Config{Secret: []string{testSecret}, URL: "http://app.example.com/auth", Providers: []providers.Provider{ok}}, "", "URL"},
	}
	for _, tc := range cases {
		_, err := gatehouse.New(tc.cfg)
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || !errors.Is(err, gatehouse.Configuration) {
			t.Errorf("%s: err = %v, want a ConfigError", tc.name, err)
			continue
		}
		var pe *providers.ConfigError
		provider, field := ce.Provider, ce.Field
		if errors.As(err, &pe) {
			provider, field = pe.Provider, pe.Field
		}
		if provider != tc.provider || field != tc.field {
			t.Errorf("%s: provider %q field %q, want %q %q (%v)", tc.name, provider, field, tc.provider, tc.field, err)
		}
	}
	// A provider given as a function is resolved, as Auth.js allows.
	if _, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{providers.Func(func() providers.Provider { return ok })}}); err != nil {
		t.Fatalf("Func provider: %v", err)
	}
}
