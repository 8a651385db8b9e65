package oauthflow

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const origin = "http://app.test"

var names = cookies.NewNames(false, false)

// fakeHost records what the flow asked of the Handler. A browser's
// binding is its CSRF cookie.
type fakeHost struct {
	flowtest.Failures
	flowtest.Finishes
}

func (h *fakeHost) Cookies(*http.Request) cookies.Names { return names }
func (h *fakeHost) Origin(*http.Request) string         { return origin }
func (h *fakeHost) CallbackURL(_ *http.Request, raw string) string {
	switch {
	case raw == "":
		return origin + "/"
	case strings.HasPrefix(raw, origin+"/"):
		return raw
	}
	return origin + raw
}
func (h *fakeHost) Binding(r *http.Request) string { return "bind-" + cookies.Value(r, names.CSRF) }
func (h *fakeHost) CheckBinding(r *http.Request, provider, recorded string) error {
	if recorded != h.Binding(r) {
		return autherr.New(autherr.InvalidCheck, "binding", provider, "checks", errors.New("another browser"))
	}
	return nil
}

// env is the flow of the OpenID provider "dev" (an in-process
// authtest provider that approves at once).
type env struct {
	op     *authtest.Server
	f      *Flow
	h      *fakeHost
	sealer *checks.Sealer
}

func newEnv(t *testing.T, typ providers.ProviderType, cfg Config) *env {
	t.Helper()
	op := authtest.NewServer(authtest.Options{AutoApprove: true, SessionIDs: true, Users: []authtest.User{
		{Subject: "alice", Name: "Alice", Email: "Alice@Example.com", EmailVerified: true},
		{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true},
	}})
	t.Cleanup(op.Close)
	o := providers.OAuthConfig[profile.Claims]{
		ID: "dev", Name: "Development", Type: typ,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
	}.OAuth()
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	sealer, err := checks.NewSealer([]string{"a-secret-of-enough-length-for-tests"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sealer, cfg.BasePath = sealer, "/auth"
	h := &fakeHost{}
	return &env{op: op, f: New(rp.New(o, op.Client(), time.Minute, 5*time.Second), cfg, h), h: h, sealer: sealer}
}

// browser holds one browser's cookies for the app.
type browser map[string]string

func (b browser) add(r *http.Request) {
	for k, v := range b {
		r.AddCookie(&http.Cookie{Name: k, Value: v})
	}
}

func (b browser) take(w *httptest.ResponseRecorder) {
	for _, c := range w.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(b, c.Name)
		} else {
			b[c.Name] = c.Value
		}
	}
}

// signIn starts a sign-in in b (query: the sign-in request's) and
// returns the authorization URL.
func (e *env) signIn(t *testing.T, b browser, query string) *url.URL {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/auth/signin/dev?"+query, nil)
	b.add(r)
	w := httptest.NewRecorder()
	n := len(e.h.Failed)
	e.f.SignIn(w, r, url.Values{"callbackUrl": {"/dash"}})
	if len(e.h.Failed) != n {
		t.Fatalf("SignIn failed: %v", e.h.Failed[n:])
	}
	b.take(w)
	u, err := url.Parse(w.Header().Get("Location"))
	if err != nil || u.Host == "" {
		t.Fatalf("SignIn answered %d, Location %q", w.Code, w.Header().Get("Location"))
	}
	return u
}

// authorize follows the authorization URL at the provider and returns
// the authorization response's parameters.
func (e *env) authorize(t *testing.T, u *url.URL) url.Values {
	t.Helper()
	c := *e.op.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(back.String(), origin+"/auth/callback/dev?") {
		t.Fatalf("the provider answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return back.Query()
}

// callback brings b back with params.
func (e *env) callback(b browser, params url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/auth/callback/dev?"+params.Encode(), nil)
	b.add(r)
	w := httptest.NewRecorder()
	e.f.Callback(w, r)
	b.take(w)
	return w
}

// TestSignIn: the authorization request of an OpenID provider carries
// the exact redirect URI, PKCE S256, state and nonce, the allowed
// pass-through parameters only, and the check cookie seals the same
// values, bound to the browser.
func TestSignIn(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	b := browser{names.CSRF: "c1"}
	u := e.signIn(t, b, "login_hint=bob&prompt=login&scope=admin&redirect_uri=https://evil.test/")
	q := u.Query()
	if !strings.HasPrefix(u.String(), e.op.Issuer()) {
		t.Errorf("authorization URL %q is not the provider's", u)
	}
	if q.Get("response_type") != "code" || q.Get("client_id") != authtest.DefaultClientID {
		t.Errorf("query %v", q)
	}
	if got := q.Get("redirect_uri"); got != origin+"/auth/callback/dev" {
		t.Errorf("redirect_uri %q", got)
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("state") == "" || q.Get("nonce") == "" {
		t.Errorf("checks in the query: %v", q)
	}
	if q.Get("login_hint") != "bob" || q.Get("prompt") != "login" || strings.Contains(q.Get("scope"), "admin") {
		t.Errorf("pass-through: login_hint %q, prompt %q, scope %q", q.Get("login_hint"), q.Get("prompt"), q.Get("scope"))
	}
	if !strings.Contains(q.Get("scope"), "openid") {
		t.Errorf("scope %q lacks openid", q.Get("scope"))
	}
	tx, err := e.sealer.OpenTransaction(checks.State, names.Checks, "dev", b[names.Checks])
	if err != nil {
		t.Fatalf("the check cookie does not open: %v", err)
	}
	if checks.Challenge(tx.Verifier) != q.Get("code_challenge") || tx.State != q.Get("state") || tx.Nonce != q.Get("nonce") || tx.Binding != "bind-c1" {
		t.Errorf("sealed %+v does not match the request %v", tx, q)
	}
	if _, err := e.sealer.OpenTransaction(checks.State, names.Checks, "other", b[names.Checks]); err == nil {
		t.Error("the check cookie opens for another provider")
	}
	if b[names.CallbackURL] != origin+"/dash" {
		t.Errorf("callback-url cookie %q", b[names.CallbackURL])
	}
}

// TestSignInDefaultCallbackURL: a sign-in that ends on the home page,
// the callback's default, sets no callback-url cookie, and clears one
// left from a sign-in that did not finish (it would send the browser
// there instead); another destination is set, once.
func TestSignInDefaultCallbackURL(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	start := func(b browser, cb string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/auth/signin/dev", nil)
		b.add(r)
		w := httptest.NewRecorder()
		e.f.SignIn(w, r, url.Values{"callbackUrl": {cb}})
		if w.Code != http.StatusSeeOther {
			t.Fatalf("SignIn answered %d: %v", w.Code, e.h.Failed)
		}
		b.take(w)
		return w
	}
	set := func(w *httptest.ResponseRecorder) (set, cleared bool) {
		for _, c := range w.Result().Cookies() {
			if c.Name == names.CallbackURL {
				set, cleared = c.MaxAge >= 0, c.MaxAge < 0
			}
		}
		return set, cleared
	}
	b := browser{names.CSRF: "c1"}
	if s, c := set(start(b, "/")); s || c {
		t.Errorf("home page: callback-url set %v, cleared %v; want neither", s, c)
	}
	if s, _ := set(start(b, "/dash")); !s || b[names.CallbackURL] != origin+"/dash" {
		t.Errorf("/dash: set %v, cookie %q", s, b[names.CallbackURL])
	}
	if s, c := set(start(b, "/dash")); s || c {
		t.Errorf("/dash again: set %v, cleared %v; want the cookie left as it is", s, c)
	}
	if _, c := set(start(b, "")); !c || b[names.CallbackURL] != "" {
		t.Errorf("home page after /dash: cleared %v, cookie %q", c, b[names.CallbackURL])
	}
}

// TestRedirectProxy: behind a redirect proxy the redirect URI is the
// proxy's, and the state check is used.
func TestRedirectProxy(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{RedirectProxyURL: "https://proxy.test/auth/"})
	q := e.signIn(t, browser{names.CSRF: "c1"}, "").Query()
	if q.Get("redirect_uri") != "https://proxy.test/auth/callback/dev" || q.Get("state") == "" {
		t.Errorf("redirect_uri %q, state %q", q.Get("redirect_uri"), q.Get("state"))
	}
}

// TestCallback: the browser that started the sign-in finishes it: the
// user, an oidc account of dev with the reduced tokens, the ID token's
// sid; the check cookie is cleared.
func TestCallback(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	b := browser{names.CSRF: "c1"}
	params := e.authorize(t, e.signIn(t, b, "login_hint=alice"))
	if params.Get("iss") != e.op.Issuer() {
		t.Errorf("the provider sent iss %q, want its issuer (RFC 9207)", params.Get("iss"))
	}
	e.callback(b, params)
	if len(e.h.Failed) != 0 || len(e.h.Finished) != 1 {
		t.Fatalf("failed %v, finished %d", e.h.Failed, len(e.h.Finished))
	}
	res := e.h.Finished[0]
	if res.User.ID != "alice" || res.User.Email != "alice@example.com" {
		t.Errorf("user %+v, want alice with a normalised address", res.User)
	}
	if a := res.Account; a.Type != account.TypeOIDC || a.Provider != "dev" || a.ProviderAccountID != "alice" || a.TokenSet.AccessToken == "" {
		t.Errorf("account %+v", a)
	}
	if res.Tokens.IDToken == "" || res.ProviderSID() == "" {
		t.Errorf("tokens: id token %v, sid %q", res.Tokens.IDToken != "", res.ProviderSID())
	}
	if _, ok := b[names.Checks]; ok {
		t.Error("the check cookie was not cleared")
	}
	// The same answer again: the check cookie is gone.
	e.callback(b, params)
	if f := e.h.LastFail(t); f.Type != autherr.InvalidCheck || f.Code != "state_cookie_missing" {
		t.Errorf("replay: %v, want InvalidCheck (state_cookie_missing)", f)
	}
}

// TestCallbackChecks: each forged or misdirected answer fails its check,
// before any code is exchanged, and signs nobody in.
func TestCallbackChecks(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	for _, tc := range []struct {
		name  string
		edit  func(b browser, p url.Values)
		typ   autherr.Type
		code  string
		check bool // the code is checks.Error's
	}{
		{"wrong state", func(_ browser, p url.Values) { p.Set("state", "forged") }, autherr.InvalidCheck, "state_mismatch", true},
		{"no state", func(_ browser, p url.Values) { p.Del("state") }, autherr.InvalidCheck, "state_missing", true},
		{"wrong iss", func(_ browser, p url.Values) { p.Set("iss", "https://evil.test") }, autherr.InvalidCheck, "iss_mismatch", true},
		{"no check cookie", func(b browser, _ url.Values) { delete(b, names.Checks) }, autherr.InvalidCheck, "state_cookie_missing", true},
		{"forged check cookie", func(b browser, _ url.Values) { b[names.Checks] = "x" + b[names.Checks] }, autherr.InvalidCheck, "state_cookie_invalid", true},
		{"another browser", func(b browser, _ url.Values) { b[names.CSRF] = "c2" }, autherr.InvalidCheck, "binding", false},
		{"provider error", func(_ browser, p url.Values) { p.Del("code"); p.Set("error", "access_denied") }, autherr.OAuthCallbackError, "access_denied", false},
		{"odd provider error", func(_ browser, p url.Values) { p.Del("code"); p.Set("error", "<script>") }, autherr.OAuthCallbackError, "provider_error", false},
		{"no code", func(_ browser, p url.Values) { p.Del("code") }, autherr.OAuthCallbackError, "code_missing", false},
		{"front-channel token", func(_ browser, p url.Values) { p.Set("id_token", "x.y.z") }, autherr.OAuthCallbackError, "front_channel_token", false},
	} {
		b := browser{names.CSRF: "c1"}
		params := e.authorize(t, e.signIn(t, b, "login_hint=alice"))
		tc.edit(b, params)
		before := len(e.op.Requests())
		e.callback(b, params)
		f := e.h.LastFail(t)
		if f.Type != tc.typ || f.Code != tc.code || f.Provider != "dev" {
			t.Errorf("%s: %v, want %s (%s)", tc.name, f, tc.typ, tc.code)
		}
		var ce *checks.Error
		if tc.check && !errors.As(f, &ce) {
			t.Errorf("%s: the cause is not a checks.Error: %v", tc.name, f.Err)
		}
		for _, req := range e.op.Requests()[before:] {
			if req.Endpoint == authtest.EndpointToken {
				t.Errorf("%s: the code was exchanged", tc.name)
			}
		}
	}
	if len(e.h.Finished) != 0 {
		t.Errorf("a refused answer signed in: %+v", e.h.Finished)
	}
}

// TestCheckCookieOfAnotherProvider: a check cookie sealed for another
// provider is refused.
func TestCheckCookieOfAnotherProvider(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	b := browser{names.CSRF: "c1"}
	params := e.authorize(t, e.signIn(t, b, ""))
	tx, err := e.sealer.OpenTransaction(checks.State, names.Checks, "dev", b[names.Checks])
	if err != nil {
		t.Fatal(err)
	}
	if b[names.Checks], err = e.sealer.SealTransaction(names.Checks, "other", tx); err != nil {
		t.Fatal(err)
	}
	e.callback(b, params)
	if f := e.h.LastFail(t); f.Type != autherr.InvalidCheck || f.Code != "state_wrong_provider" {
		t.Errorf("%v, want InvalidCheck (state_wrong_provider)", f)
	}
}

// TestEndSessionAndReturn: the end-session URL carries the ID token
// hint, the client id, the exact post-logout redirect URI and a state
// sealed in a cookie; the way back accepts that state only, then goes to
// the callback URL.
func TestEndSessionAndReturn(t *testing.T) {
	e := newEnv(t, providers.TypeOIDC, Config{})
	b := browser{}
	w := httptest.NewRecorder()
	dest := e.f.EndSessionURL(w, httptest.NewRequest(http.MethodPost, "/auth/signout", nil), "the-id-token", origin+"/bye")
	b.take(w)
	u, err := url.Parse(dest)
	if dest == "" || err != nil {
		t.Fatalf("EndSessionURL = %q", dest)
	}
	q := u.Query()
	if q.Get("id_token_hint") != "the-id-token" || q.Get("client_id") != authtest.DefaultClientID ||
		q.Get("post_logout_redirect_uri") != origin+"/auth/signout/callback/dev" || q.Get("state") == "" {
		t.Errorf("end-session query %v", q)
	}
	if b[names.LogoutState] == "" || b[names.CallbackURL] != origin+"/bye" {
		t.Fatalf("cookies %v", b)
	}

	back := func(state string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/auth/signout/callback/dev?state="+url.QueryEscape(state), nil)
		r.SetPathValue("provider", "dev")
		b.add(r)
		w := httptest.NewRecorder()
		SignOutReturn(w, r, e.sealer, e.h)
		return w
	}
	w = back("forged")
	if f := e.h.LastFail(t); f.Type != autherr.InvalidCheck || f.Code != "state_mismatch" || w.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("forged state: %v", f)
	}
	n := len(e.h.Failed)
	w = back(q.Get("state"))
	if len(e.h.Failed) != n || w.Header().Get("Location") != origin+"/bye" {
		t.Errorf("the right state: failures %v, Location %q", e.h.Failed[n:], w.Header().Get("Location"))
	}
	cleared := false
	for _, c := range w.Result().Cookies() {
		cleared = cleared || (c.Name == names.LogoutState && c.MaxAge < 0)
	}
	if !cleared {
		t.Error("the logout state cookie was not cleared")
	}
}
