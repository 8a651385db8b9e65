package gatehouse_test

import (
	"context"
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
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"golang.org/x/oauth2"
)

// eachStore runs test, in parallel, on a new store of each of the kinds
// of stores.
func eachStore(t *testing.T, test func(t *testing.T, st *store)) {
	eachKind(t, func(t *testing.T, kind string) { test(t, openStore(t, kind)) })
}

// eachKind runs test, in parallel, as a subtest for each of the kinds of
// stores, for tests whose own subtests each open a new store.
func eachKind(t *testing.T, test func(t *testing.T, kind string)) {
	for _, kind := range stores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			test(t, kind)
		})
	}
}

// signedInKeepingTokens starts an app that keeps the provider's tokens
// (KeepTokens), its provider "dev" changed by dev, and signs a new browser
// in.
func signedInKeepingTokens(t *testing.T, opts authtest.Options, dev func(c *providers.OAuthConfig[profile.Claims])) (*app, *browser) {
	t.Helper()
	a := newApp(t, opts, func(cfg *gatehouse.Config) {
		withDev(dev)(cfg)
		cfg.Callbacks.JWT = gatehouse.KeepTokens(nil)
	})
	b := newBrowser(t)
	signedIn(t, a, b)
	return a, b
}

// nonceRetriedPAR returns the PAR and token requests of a sign-in whose
// PAR request the provider answered use_dpop_nonce: two PAR requests and
// one token request, or it fails the test.
func nonceRetriedPAR(t *testing.T, a *app) (pars, toks []authtest.RecordedRequest) {
	t.Helper()
	pars, toks = requestsTo(a.op, authtest.EndpointPAR), requestsTo(a.op, authtest.EndpointToken)
	if len(pars) != 2 || len(toks) != 1 {
		t.Fatalf("%d PAR and %d token requests, want 2 and 1", len(pars), len(toks))
	}
	return pars, toks
}

// accessToken returns the access token of ts, as Handler.TokenSource
// returned it with err.
func accessToken(ts oauth2.TokenSource, err error) (string, error) {
	if err != nil {
		return "", err
	}
	tok, err := ts.Token()
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// tossCallback has a new attacker's browser start a sign-in as user of
// provider, plants its check cookie in victim's browser (cookie tossing),
// and returns the callback URL the provider sent the attacker to.
func (s *attackSite) tossCallback(t *testing.T, victim *browser, provider, user string) string {
	t.Helper()
	attacker := s.browser(t)
	cb := attacker.startAs(s.app, provider, user)
	plantChecks(t, s.app, attacker, victim)
	return cb
}

// newOP starts an in-process provider with opts, closed when the test
// ends.
func newOP(tb testing.TB, opts authtest.Options) *authtest.Server {
	op := authtest.NewServer(opts)
	tb.Cleanup(op.Close)
	return op
}

// listenLocal listens on a free loopback port, or fails the test.
func listenLocal(tb testing.TB) net.Listener {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	return ln
}

// postSignIn posts q to the sign-in URL u and follows the flow to its
// end, returning the final response and its body.
func (b *browser) postSignIn(u string, q url.Values) (*http.Response, string) {
	b.t.Helper()
	resp := b.post(u, q)
	if resp.StatusCode != http.StatusSeeOther {
		b.t.Fatalf("sign-in POST answered %d, want 303", resp.StatusCode)
	}
	resp = b.follow(resp)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// userinfoAfterRefresh calls the provider's userinfo endpoint through
// Handler.Client with a MinValidity that makes it refresh the token
// first, or fails the test.
func userinfoAfterRefresh(t *testing.T, a *app, b *browser) {
	t.Helper()
	w := httptest.NewRecorder()
	c, err := a.h.Client(context.Background(), w, b.appRequest(a), "dev", gatehouse.MinValidity(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(a.op.Issuer() + "/userinfo")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("userinfo after a refresh: %v %v", resp, err)
	}
	resp.Body.Close()
}

// wantUnchanged fails the test unless victim is still signed in as
// userID and the account of provider with providerAccountID was not
// stored: an attack was refused and left nothing behind.
func (s *attackSite) wantUnchanged(t *testing.T, victim *browser, userID, provider, providerAccountID string) {
	t.Helper()
	if got := victim.userID(s.app); got != userID {
		t.Fatalf("the victim's session changed: user %q, want %q", got, userID)
	}
	if _, err := s.db.GetUserByAccount(context.Background(), provider, providerAccountID); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("the account %s/%s was stored: %v", provider, providerAccountID, err)
	}
}

// signInWithFaults starts an app whose provider, started with opts, has
// faults, and runs a new browser's sign-in with "dev" to /private.
func signInWithFaults(t *testing.T, opts authtest.Options, faults authtest.Faults) (a *app, b *browser, resp *http.Response, body string) {
	t.Helper()
	a = newApp(t, opts, nil)
	a.op.SetFaults(faults)
	b = newBrowser(t)
	resp, body = b.signIn(a, "dev", "/private")
	return a, b, resp, body
}

// askDPoPNonce answers a resource request 401 use_dpop_nonce, asking for
// a DPoP proof with nonce (RFC 9449 §9).
func askDPoPNonce(w http.ResponseWriter, nonce string) {
	w.Header().Set("DPoP-Nonce", nonce)
	w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
	w.WriteHeader(http.StatusUnauthorized)
}

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
