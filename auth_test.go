package gatehouse_test

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

// TestThemeConfigErrors: a Theme or provider Style value the pages would
// have to drop is a *ConfigError from New, naming the field and, for a
// Style, the provider; the cause is a *pages.FieldError.
func TestThemeConfigErrors(t *testing.T) {
	prov := func(s providers.Style) providers.Provider {
		return providers.OAuthConfig[profile.Claims]{ID: "acme", Name: "Acme", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c", Style: s}
	}
	cases := []struct {
		name     string
		theme    pages.Theme
		style    providers.Style
		provider string
		field    string
		reason   string
	}{
		{"brand colour", pages.Theme{BrandColor: "#12345"}, providers.Style{}, "", "Theme.BrandColor", `"#12345" is not a colour`},
		{"css injection", pages.Theme{BrandColor: "red;}</style>"}, providers.Style{}, "", "Theme.BrandColor", "is not a colour"},
		{"button text", pages.Theme{ButtonText: "whitish"}, providers.Style{}, "", "Theme.ButtonText", "is not a colour"},
		{"low contrast", pages.Theme{BrandColor: "#1da1f2", ButtonText: "#fff"}, providers.Style{}, "", "Theme.ButtonText", "contrast ratio of 2.8"},
		{"low contrast on default", pages.Theme{ButtonText: "#333"}, providers.Style{}, "", "Theme.ButtonText", "on BrandColor #2f5bd3"},
		{"logo scheme", pages.Theme{Logo: "javascript:alert(1)"}, providers.Style{}, "", "Theme.Logo", "is not a usable image URL"},
		{"logo protocol-relative", pages.Theme{Logo: "//evil.example/x.png"}, providers.Style{}, "", "Theme.Logo", "is not a usable image URL"},
		{"scheme", pages.Theme{ColorScheme: "sepia"}, providers.Style{}, "", "Theme.ColorScheme", `"sepia" is not "auto", "light" or "dark"`},
		{"style bg", pages.Theme{}, providers.Style{Bg: "rgb(0,0,0)"}, "acme", "Style.Bg", "is not a colour"},
		{"style brand", pages.Theme{}, providers.Style{BrandColor: "#gg0000"}, "acme", "Style.BrandColor", "is not a colour"},
		{"style text", pages.Theme{}, providers.Style{BrandColor: "#000", Text: "var(--x)"}, "acme", "Style.Text", "is not a colour"},
		{"style logo", pages.Theme{}, providers.Style{Logo: "data:text/html,<b>"}, "acme", "Style.Logo", "is not a usable image URL"},
		{"style icon", pages.Theme{}, providers.Style{Icon: `M0 0"/><script>alert(1)</script>`}, "acme", "Style.Icon", "is not SVG path data"},
	}
	for _, tc := range cases {
		_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Theme: tc.theme, Providers: []providers.Provider{prov(tc.style)}})
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || !errors.Is(err, gatehouse.Configuration) {
			t.Errorf("%s: err = %v, want a ConfigError", tc.name, err)
			continue
		}
		if ce.Provider != tc.provider || ce.Field != tc.field || !strings.Contains(ce.Reason, tc.reason) {
			t.Errorf("%s: provider %q field %q reason %q, want %q %q containing %q", tc.name, ce.Provider, ce.Field, ce.Reason, tc.provider, tc.field, tc.reason)
		}
		var fe *pages.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v does not wrap a *pages.FieldError", tc.name, err)
		}
	}

	// Good values, including a low-contrast Style.Text (the built-in
	// providers keep Auth.js's colours; the page picks a readable one).
	good := []struct {
		theme pages.Theme
		style providers.Style
	}{
		{pages.Theme{}, providers.Style{}},
		{pages.Theme{ColorScheme: " Dark ", BrandColor: "RebeccaPurple", ButtonText: "#fff", Logo: "/static/logo.svg"}, providers.Style{Bg: "#1da1f2", Text: "#fff", Logo: "https://cdn.example.com/a.png"}},
		{pages.Theme{BrandColor: "#ffcc00", ButtonText: "#000", Logo: "data:image/svg+xml;base64,PHN2Zy8+"}, providers.Style{BrandColor: "#0000", Logo: "img/x.png"}},
		{pages.Theme{}, providers.Style{Icon: "M12 .297c-6.63 0-12 5.373-12 12Z"}},
	}
	for _, g := range good {
		if _, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Theme: g.theme, Providers: []providers.Provider{prov(g.style)}}); err != nil {
			t.Errorf("theme %+v style %+v: %v", g.theme, g.style, err)
		}
	}
}

// TestSignInPageIcons: a provider's Style.Icon reaches its button on the
// built-in sign-in page: the built-in GitHub provider's own, and one an
// application sets on a provider of its own.
func TestSignInPageIcons(t *testing.T) {
	const own = "M0 0h24v24H0z"
	h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth", Providers: []providers.Provider{
		github.New(providers.OAuthUserConfig[github.Profile]{ClientID: "c", ClientSecret: "s"}),
		providers.OAuthConfig[profile.Claims]{ID: "acme", Name: "Acme", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c", Style: providers.Style{Icon: own}},
	}})
	r := httptest.NewRequest(http.MethodGet, "http://localhost/auth/signin", nil)
	r.Header.Set("Accept", "text/html")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	for _, d := range []string{github.Icon, own} {
		if !strings.Contains(w.Body.String(), `<path fill="currentColor" d="`+d+`"></path></svg>`) {
			t.Errorf("the sign-in page lacks the icon %.40q…:\n%s", d, w.Body.String())
		}
	}
}

// TestCustomPages: with Config.Pages, every built-in page sends the
// visitor to the application's route instead, with the query the page
// would have read, as Auth.js does: sign in (also from Require and after
// an error the user can retry), sign out, the error page (also after a
// failed sign-in), verify-request, and the new-user page after a first
// sign-in.
func TestCustomPages(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Adapter = memory.New()
		c.Pages = gatehouse.Pages{SignIn: "/login", SignOut: "/logout", Error: "/oops", VerifyRequest: "/check-email", NewUser: "/welcome"}
	})
	b := newBrowser(t)
	redirects := func(path string, status int) *url.URL {
		t.Helper()
		resp := b.Get(a.url + path)
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, status)
		}
		u, _ := url.Parse(resp.Header.Get("Location"))
		return u
	}
	// Sign-in, sign-out and error answer 302 themselves, as Auth.js
	// does; verify-request, the e-mail provider's page, is replaced like
	// the pages Auth.js does not have (303).
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/auth/signin?callbackUrl=%2Fprivate", "/login?callbackUrl=%2Fprivate", http.StatusFound},
		{"/private", "/login?callbackUrl=%2Fprivate", http.StatusFound},
		{"/auth/signout", "/logout", http.StatusFound},
		{"/auth/error?error=AccessDenied", "/oops?error=AccessDenied", http.StatusFound},
		{"/auth/verify-request?provider=email&type=email", "/check-email?provider=email&type=email", http.StatusSeeOther},
	} {
		if got := redirects(tc.path, tc.status); got.String() != tc.want {
			t.Errorf("GET %s redirects to %s, want %s", tc.path, got, tc.want)
		}
	}

	// A first sign-in lands on the new-user page, which is told where the
	// visitor was going.
	resp, _ := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/welcome" || resp.Request.URL.Query().Get("callbackUrl") != a.url+"/private" {
		t.Errorf("first sign-in landed on %s, want /welcome?callbackUrl=%s/private", resp.Request.URL, a.url)
	}

	// Failures: one the visitor can retry goes to the sign-in route, the
	// others to the error route, with ?error= and ?code=.
	for _, tc := range []struct {
		faults authtest.Faults
		path   string
		error  string
	}{
		{authtest.Faults{AuthorizeAccessDenied: true}, "/login", "OAuthCallbackError"},
		{authtest.Faults{IDTokenWrongIssuer: true}, "/oops", "InvalidIDToken"},
	} {
		a.op.SetFaults(tc.faults)
		b := newBrowser(t)
		resp, _ := b.signIn(a, "dev", "/private")
		q := resp.Request.URL.Query()
		if resp.Request.URL.Path != tc.path || q.Get("error") != tc.error || q.Get("code") == "" {
			t.Errorf("%+v: landed on %s, want %s?error=%s&code=…", tc.faults, resp.Request.URL, tc.path, tc.error)
		}
	}
}

// TestCustomPagesConfig: a route in Config.Pages must be the site's own.
func TestCustomPagesConfig(t *testing.T) {
	prov := providers.OAuthConfig[profile.Claims]{ID: "acme", Name: "Acme", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c"}
	for _, tc := range []struct {
		url   string
		pages gatehouse.Pages
		field string // "" for valid
	}{
		{"https://app.example.com/auth", gatehouse.Pages{SignIn: "/login", SignOut: "/logout", Error: "/e", VerifyRequest: "/v", NewUser: "/welcome"}, ""},
		{"https://app.example.com/auth", gatehouse.Pages{SignIn: "https://app.example.com/login"}, ""},
		{"https://app.example.com/auth", gatehouse.Pages{SignIn: "https://evil.example/login"}, "Pages.SignIn"},
		{"https://app.example.com/auth", gatehouse.Pages{Error: "//evil.example/e"}, "Pages.Error"},
		{"https://app.example.com/auth", gatehouse.Pages{SignOut: "logout"}, "Pages.SignOut"},
		{"https://app.example.com/auth", gatehouse.Pages{NewUser: "javascript:alert(1)"}, "Pages.NewUser"},
		{"https://app.example.com/auth", gatehouse.Pages{VerifyRequest: "/check?x=1"}, "Pages.VerifyRequest"},
		{"https://app.example.com/auth", gatehouse.Pages{SignIn: `/\evil.example`}, "Pages.SignIn"},
		{"", gatehouse.Pages{SignIn: "https://app.example.com/login"}, "Pages.SignIn"},
		{"", gatehouse.Pages{SignIn: "/login"}, ""},
	} {
		_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: tc.url, Pages: tc.pages, Providers: []providers.Provider{prov}})
		var ce *gatehouse.ConfigError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v", tc.pages, err)
		case tc.field != "" && (!errors.As(err, &ce) || ce.Field != tc.field):
			t.Errorf("%+v: err = %v, want a ConfigError for %s", tc.pages, err, tc.field)
		}
	}
}

// TestThemeWithNonOAuthProviders: the style checks skip e-mail and
// credentials providers, which have no button style, and still check
// the OAuth providers after them.
func TestThemeWithNonOAuthProviders(t *testing.T) {
	creds := credentials.Config{ID: "password", Name: "Password", Fields: []credentials.Field{{Name: "password", Type: "password"}},
		Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
			return nil, nil
		}}
	bad := providers.OAuthConfig[profile.Claims]{ID: "acme", Name: "Acme", Type: providers.TypeOIDC, Issuer: "https://op.example", ClientID: "c", Style: providers.Style{Bg: "nope"}}
	if _, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{creds}}); err != nil {
		t.Fatalf("credentials only: %v", err)
	}
	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{creds, bad}})
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Provider != "acme" || ce.Field != "Style.Bg" {
		t.Fatalf("err = %v, want a ConfigError for acme's Style.Bg", err)
	}
}

// TestCookieAttributes (ASVS 3.3.1-3.3.4; RFC 6265bis cookie prefixes): on https
// every cookie is HttpOnly, Secure, Path=/, SameSite=Lax, without Domain,
// and by default has the __Host- prefix, which no sibling subdomain or
// plain-http page can set (cookie tossing); with AuthJSCookieNames the
// names are Auth.js's (the CSRF cookie __Host-, the others __Secure-).
// Check cookies live at most 15 minutes.
func TestCookieAttributes(t *testing.T) {
	for _, authjs := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "AuthJSCookieNames"}[authjs], func(t *testing.T) {
			a, b := newTLSApp(t, func(c *gatehouse.Config) { c.AuthJSCookieNames = authjs }) // interop_test.go
			seen := map[string]*http.Cookie{}
			record := func(resp *http.Response) {
				for _, c := range resp.Cookies() {
					if c.MaxAge >= 0 {
						seen[c.Name] = c
					}
				}
			}
			resp := b.Get(a.url + "/auth/csrf")
			record(resp)
			resp.Body.Close()
			resp = b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
			record(resp)
			cb := b.Get(resp.Header.Get("Location"))
			resp = b.Get(cb.Header.Get("Location"))
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
		for _, c := range b.Client.Jar.Cookies(u) {
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

// eventLog records Events.Failure and Events.Refresh.
type eventLog struct {
	mu        sync.Mutex
	failures  []gatehouse.Error
	refreshes []string
}

func (l *eventLog) install(cfg *gatehouse.Config) {
	cfg.Events.Failure = func(_ context.Context, e *gatehouse.Error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.failures = append(l.failures, *e)
	}
	cfg.Events.Refresh = func(_ context.Context, provider string, err error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		s := provider + " ok"
		if err != nil {
			s = provider + " " + err.Error()
		}
		l.refreshes = append(l.refreshes, s)
	}
}

func (l *eventLog) last() gatehouse.Error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.failures) == 0 {
		return gatehouse.Error{}
	}
	return l.failures[len(l.failures)-1]
}

// TestFailureEvents: every failure the handler reports reaches
// Events.Failure with its type, code and provider, a refused rate limit
// included, for metrics and audit logs.
func TestFailureEvents(t *testing.T) {
	log := &eventLog{}
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		log.install(cfg)
		cfg.RateLimit = limit.NewMemory(2, time.Minute)
	})
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {"forged"}})
	resp.Body.Close()
	if e := log.last(); e.Type != gatehouse.MissingCSRF || e.Code != "csrf" || e.Provider != "dev" {
		t.Fatalf("after a forged CSRF token: %+v", e)
	}
	for range 3 {
		resp = b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {"forged"}})
		resp.Body.Close()
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the fourth attempt answered %d", resp.StatusCode)
	}
	if e := log.last(); e.Type != gatehouse.TooManyRequests || e.Provider != "dev" || e.Step != "limit" {
		t.Fatalf("after the rate limit: %+v", e)
	}
}

// TestRefreshEvents: Events.Refresh hears of each refresh grant, good or
// refused.
func TestRefreshEvents(t *testing.T) {
	log := &eventLog{}
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, log.install)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	ctx := context.Background()

	expireStored(t, st)
	ts, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Token(); err != nil {
		t.Fatal(err)
	}
	expireStored(t, st)
	a.op.SetFaults(authtest.Faults{TokenInvalidGrant: true})
	ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if _, err := ts.Token(); !errors.Is(err, gatehouse.ErrSignInAgain) {
		t.Fatalf("refused refresh: %v", err)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.refreshes) != 2 || log.refreshes[0] != "dev ok" || log.refreshes[1] == "dev ok" {
		t.Fatalf("refresh events %q", log.refreshes)
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
		{"nil pointer provider", gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{ok, (*providers.OAuthConfig[profile.Claims])(nil)}}, "1", "Providers"},
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

// The JWT strategy stays the default without an adapter, and can be
// chosen with one.
func TestStrategyDefaults(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	if raw := b.cookie(a, sessionCookie); strings.Count(raw, ".") != 4 {
		t.Fatalf("without an adapter the session cookie is %q, want a JWE", raw)
	}

	st := openStore(t, "memory")
	a, _ = newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Session.Strategy = gatehouse.StrategyJWT })
	b = newBrowser(t)
	b.signIn(a, "dev", "/")
	if raw := b.cookie(a, sessionCookie); strings.Count(raw, ".") != 4 {
		t.Fatalf("with Strategy jwt the session cookie is %q, want a JWE", raw)
	}
	u, err := st.raw.GetUserByEmail(context.Background(), "alice@example.com")
	if err != nil || b.userID(a) != u.ID {
		t.Fatalf("JWT session with an adapter: user %q, stored %+v (%v)", b.userID(a), u, err)
	}
	if n := st.spy.count("CreateSession") + st.spy.count("GetSessionAndUser"); n != 0 {
		t.Fatalf("the JWT strategy made %d session calls to the adapter", n)
	}
}

// TestScaleOut runs three instances of the application (three Handlers
// with one secret, each with its own connection pool to one PostgreSQL
// database) behind a balancer that sends the sign-in to the first, the
// provider's callback to the second and everything else to the third.
func TestScaleOut(t *testing.T) {
	t.Parallel()
	schema, conn := dbtest.PostgresSchema(t, "gatehouse_scaleout")
	op := newOP(t, authtest.Options{AutoApprove: true, Users: []authtest.User{alice, bob}})
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()

	const n = 3
	var (
		handlers [n]*gatehouse.Handler
		apps     [n]http.Handler
		spies    [n]*spyAdapter
		created  atomic.Int32 // CreateUser events, over all instances
	)
	var migrate sync.WaitGroup
	for i := range n {
		pa := postgres.New(dbtest.PostgresPool(t, schema, nil))
		migrate.Go(func() { // concurrently, as instances starting together do
			if err := pa.Migrate(context.Background()); err != nil {
				t.Error(err)
			}
		})
		spies[i] = newSpy(pa)
		h, err := gatehouse.New(gatehouse.Config{
			Secret:     []string{testSecret},
			URL:        base + "/auth",
			Providers:  []providers.Provider{devProvider(op)},
			Adapter:    spies[i],
			HTTPClient: &http.Client{Timeout: 5 * time.Second},
			Events:     gatehouse.Events{CreateUser: func(context.Context, profile.User) { created.Add(1) }},
		})
		if err != nil {
			t.Fatal(err)
		}
		handlers[i], apps[i] = h, h.Middleware(siteMux(h))
	}
	migrate.Wait()
	if t.Failed() {
		t.FailNow()
	}

	var (
		mu        sync.Mutex
		served    []string
		callbacks atomic.Int32
	)
	route := func(r *http.Request) int {
		switch p := r.URL.Path; {
		case p == "/auth/csrf", strings.HasPrefix(p, "/auth/signin/"), p == "/auth/signout":
			return 0
		case strings.HasPrefix(p, "/auth/callback/"):
			return 1 + int(callbacks.Add(1)-1)%2 // 1, then 2, 1, …
		}
		return 2
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := route(r)
		mu.Lock()
		served = append(served, string(rune('0'+i))+" "+r.Method+" "+r.URL.Path)
		mu.Unlock()
		apps[i].ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	a := &app{t: t, op: op, srv: srv, url: base}

	// Sign in on 0, call back on 1, read the session on 2.
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.Hops)
	}
	for _, want := range []string{"0 POST /auth/signin/dev", "1 GET /auth/callback/dev", "2 GET /private"} {
		if !slices.Contains(served, want) {
			t.Fatalf("no %q in %q", want, served)
		}
	}
	stored, err := spies[2].Adapter.GetUserByEmail(context.Background(), "alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if id := b.userID(a); id != stored.ID {
		t.Fatalf("instance 2 reads the session as %q, want %q", id, stored.ID)
	}
	if spies[1].count("CreateSession") != 1 || spies[2].count("GetSessionAndUser") == 0 {
		t.Fatal("the session was not made on instance 1 and read on instance 2")
	}

	// Tokens: refreshed by instance 1, the saved ones used by instance 2.
	ctx := context.Background()
	acct, _ := spies[0].Adapter.GetAccount(ctx, "dev", "alice")
	acct.ExpiresAt = time.Now().Add(-time.Minute).Unix()
	if err := spies[0].Adapter.UpdateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	ts1, err := handlers[1].TokenSource(ctx, nil, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	tok1, err := ts1.Token()
	if err != nil || tok1.AccessToken == acct.AccessToken {
		t.Fatalf("instance 1: %v (%v)", tok1, err)
	}
	ts2, _ := handlers[2].TokenSource(ctx, nil, b.appRequest(a), "dev")
	if tok2, err := ts2.Token(); err != nil || tok2.AccessToken != tok1.AccessToken || len(refreshRequests(op)) != 1 {
		t.Fatalf("instance 2: same token %v (%v), %d refreshes", tok2.AccessToken == tok1.AccessToken, err, len(refreshRequests(op)))
	}

	// Two first sign-ins of bob at once, called back on instances 1 and 2,
	// both past the lookups before either writes: one user.
	bar := newBarrier(2)
	for _, s := range spies {
		s.holdAt("CreateUserWithAccount", bar)
	}
	runConcurrentSignInsAs(t, base, "dev", "bob", 2)
	creates := 0
	for _, s := range spies {
		s.holdAt("CreateUserWithAccount", nil)
		creates += s.count("CreateUserWithAccount")
	}
	if creates != 3 {
		t.Fatalf("%d CreateUserWithAccount calls, want alice's 1 and bob's 2 (the race did not happen)", creates)
	}
	if got := created.Load(); got != 2 {
		t.Fatalf("CreateUser fired %d times for alice and bob, want 2", got)
	}
	if users, accts := pgCount(t, conn, "gatehouse_users"), pgCount(t, conn, "gatehouse_accounts"); users != 2 || accts != 2 {
		t.Fatalf("%d users and %d accounts, want 2 and 2", users, accts)
	}

	// Sign out on 0: the session is gone on 2.
	out := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}})
	out.Body.Close()
	if id := b.userID(a); id != "" {
		t.Fatalf("instance 2 still reads a session after sign-out on 0: %q", id)
	}
	if n := pgCount(t, conn, "gatehouse_sessions"); n != 2 {
		t.Fatalf("%d session rows, want bob's 2", n)
	}
}

// TestScaleOutRedis runs three instances with Redis as secondary storage
// (sessions in Redis, users, accounts and two-factor secrets in
// PostgreSQL) behind a balancer that sends each request to the next
// instance in turn, so that every step of every flow lands on another
// instance than the one before. Two browsers sign in; one turns on
// two-factor sign-in and passes it on a later sign-in; "sign out
// everywhere else" and sign-out are refused on every instance at the
// next request: the cookie cache, though enabled, is left off, since
// Redis is read each time.
func TestScaleOutRedis(t *testing.T) {
	t.Parallel()
	schema, conn := dbtest.PostgresSchema(t, "gatehouse_scaleout")
	rdb := redistest.NewClient(t)
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	op := newOP(t, authtest.Options{AutoApprove: true})
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()
	const n = 3
	var apps [n]http.Handler
	for i := range n {
		pa := dbtest.Postgres(t, schema)
		h, err := gatehouse.New(gatehouse.Config{
			Secret: []string{testSecret},
			URL:    base + "/auth",
			Providers: []providers.Provider{devProvider(op), credentials.Config{Authorize: janeOnly,
				Fields: []credentials.Field{{Name: "username", Label: "Username"}, {Name: "password", Label: "Password", Type: "password"}}}},
			Adapter:     redisstore.New(rdb, pa, redisstore.Options{Prefix: prefix}),
			TwoFactor:   twofactor.SignIn{},
			SelfService: selfservice.Routes{},
			// One setting puts every limit in Redis; the balancer (the
			// test client, on loopback) reports the client's address.
			Limits:         redislimit.Backend{Client: rdb, Prefix: prefix + "limit:"},
			TrustedProxies: []string{"127.0.0.1", "::1"},
			// Asked for, and left off: sessions are read live from Redis
			// (adapter.LiveSessions), so an ended one is refused at once.
			Session:    gatehouse.SessionConfig{CookieCache: gatehouse.CookieCache{Enabled: true}},
			HTTPClient: &http.Client{Timeout: 5 * time.Second},
		})
		if err != nil {
			t.Fatal(err)
		}
		apps[i] = h.Middleware(siteMux(h))
	}
	var next atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apps[int(next.Add(1)-1)%n].ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	a := &app{t: t, op: op, srv: srv, url: base}
	signedOutEverywhere := func(b *browser, what string) {
		t.Helper()
		for range n {
			if id := b.userID(a); id != "" {
				t.Fatalf("%s: an instance still reads a session (%s)", what, id)
			}
		}
	}

	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)
	if code, list := laptop.sessions(a); code != http.StatusOK || len(list) != 2 {
		t.Fatalf("sessions listed from Redis: %d %v", code, list)
	}
	if keys, _ := rdb.Keys(context.Background(), prefix+"session:*").Result(); len(keys) != 2 {
		t.Fatalf("%d sessions in Redis, want 2", len(keys))
	}
	_, backups := enrol(t, a, laptop)

	// A later sign-in asks for the code, across instances.
	tablet := newBrowser(t)
	if resp, _ := firstFactor(t, a, tablet); resp.Request.URL.Path != "/auth/two-factor" {
		t.Fatalf("the first factor landed on %s, want the code form", resp.Request.URL)
	}
	if code, _ := tablet.twoFactor(a, "", url.Values{"code": {backups[0]}}); code != http.StatusSeeOther || tablet.userID(a) == "" {
		t.Fatalf("the backup code: %d", code)
	}

	if code := laptop.revoke(a, "revoke-others", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-others: %d", code)
	}
	signedOutEverywhere(phone, "after revoke-others, the phone")
	signedOutEverywhere(tablet, "after revoke-others, the tablet")
	out := laptop.Post(a.url+"/auth/signout", url.Values{"csrfToken": {laptop.csrf(a)}})
	out.Body.Close()
	signedOutEverywhere(laptop, "after sign-out, the laptop")

	// The credentials lockout counts in Redis, per client address as the
	// proxy reports it: five wrong passwords from one address, each on
	// the next instance, lock that address out on all three; another
	// address is not locked.
	guess := func(from, pw string) int {
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/credentials",
			strings.NewReader(url.Values{"csrfToken": {laptop.csrf(a)}, "username": {"jane"}, "password": {pw}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "198.51.100.99, "+from) // the left part is the client's own: ignored
		resp := laptop.Do(req)
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 5 {
		if code := guess("203.0.113.7", "wrong"); code != http.StatusSeeOther {
			t.Fatalf("wrong password %d: %d", i, code)
		}
	}
	if code := guess("203.0.113.7", "correct horse"); code != http.StatusTooManyRequests {
		t.Fatalf("a sixth attempt from the same address, on another instance: %d, want 429", code)
	}
	if code := guess("203.0.113.8", "wrong"); code != http.StatusSeeOther {
		t.Fatalf("an attempt from another address: %d, want the usual refusal", code)
	}
	for _, name := range []string{"credentials-per-identifier-and-ip", "credentials-per-ip", "rate"} {
		if keys, _ := rdb.Keys(context.Background(), prefix+"limit:"+name+":*").Result(); len(keys) == 0 {
			t.Errorf("no counts of the %s limit in Redis", name)
		}
	}

	if users, sessions := pgCount(t, conn, "gatehouse_users"), pgCount(t, conn, "gatehouse_sessions"); users != 1 || sessions != 0 {
		t.Fatalf("PostgreSQL has %d users and %d sessions, want 1 and 0 (sessions live in Redis)", users, sessions)
	}
	if keys, _ := rdb.Keys(context.Background(), prefix+"session:*").Result(); len(keys) != 0 {
		t.Fatalf("%d sessions left in Redis", len(keys))
	}
}

// janeOnly is a credentials Authorize that knows one user, jane with the
// password "correct horse".
func janeOnly(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
	if c["username"] != "jane" || subtle.ConstantTimeCompare([]byte(c["password"]), []byte("correct horse")) != 1 {
		return nil, nil
	}
	return &profile.User{ID: "u-jane", Name: "Jane", Email: "jane@example.com"}, nil
}

// recordingBackend records the limits a Handler asks of Config.Limits.
type recordingBackend struct {
	mu   sync.Mutex
	made map[string]string
}

func (b *recordingBackend) Limiter(name string, max int, window time.Duration) limit.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, dup := b.made[name]; dup {
		b.made[name] = "asked twice"
	} else {
		b.made[name] = fmt.Sprintf("%d per %s", max, window)
	}
	return limit.NewMemory(max, window)
}

// TestLimitsMakesEveryLimit: with Config.Limits set, every limit the
// handler keeps by default is made by it, each under a name of its own
// and with the numbers of the in-memory default; a limiter set on its own
// field is used as it is.
func TestLimitsMakesEveryLimit(t *testing.T) {
	rec := &recordingBackend{made: map[string]string{}}
	op := newOP(t, authtest.Options{})
	mine := limit.NewMemory(1, time.Hour)
	newHandler(t, gatehouse.Config{
		Secret: []string{testSecret}, URL: "https://app.test/auth", Adapter: memory.New(), Limits: rec,
		TwoFactor: twofactor.SignIn{},
		Providers: []providers.Provider{devProvider(op),
			credentials.Config{Authorize: janeOnly, Fields: []credentials.Field{{Name: "username", Label: "Username"}}, PerIP: mine},
			email.Config{SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }},
			passwordaccount.Config{Send: func(context.Context, passwordaccount.Message) error { return nil }},
			passkey.New(passkey.WebAuthnConfig{}),
		},
	})
	n := func(max int, window time.Duration) string { return fmt.Sprintf("%d per %s", max, window) }
	cred := func(max int) string { return n(max, credentials.DefaultWindow) }
	sends := func(max int) string { return n(max, email.DefaultSendWindow) }
	want := map[string]string{
		"rate":                              n(gatehouse.DefaultRateLimit, time.Minute),
		"passkey-challenges":                n(1, time.Hour),
		"credentials-per-identifier":        cred(credentials.DefaultPerIdentifier),
		"credentials-per-identifier-and-ip": cred(credentials.DefaultPerIdentifierAndIP),
		"email-sends-per-ip":                sends(email.DefaultSendsPerIP),
		"email-sends-per-identifier":        sends(email.DefaultSendsPerIdentifier),
		"password-per-ip":                   cred(credentials.DefaultPerIP),
		"password-per-identifier":           cred(credentials.DefaultPerIdentifier),
		"password-per-identifier-and-ip":    cred(credentials.DefaultPerIdentifierAndIP),
		"password-sends-per-ip":             sends(email.DefaultSendsPerIP),
		"password-sends-per-identifier":     sends(email.DefaultSendsPerIdentifier),
		"two-factor-per-pending":            n(5, 5*time.Minute),
		"two-factor-per-user":               n(10, 15*time.Minute),
	}
	if !maps.Equal(rec.made, want) {
		t.Fatalf("limits made by Config.Limits:\n%v\nwant:\n%v", rec.made, want)
	}
}

// TestPagesLanguage checks the language of the built-in pages through the
// Handler: Accept-Language picks German, Config.Language overrides it,
// and English is the default.
func TestPagesLanguage(t *testing.T) {
	newH := func(lang func(*http.Request) string) *gatehouse.Handler {
		return newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth", Adapter: memory.New(),
			Language: lang,
			Providers: []providers.Provider{passwordaccount.Config{ID: "members", Name: "Konto",
				Send: func(context.Context, passwordaccount.Message) error { return nil }},
				email.Config{SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }}}})
	}
	get := func(h *gatehouse.Handler, path, accept string) string {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil)
		r.Header.Set("Accept", "text/html")
		if accept != "" {
			r.Header.Set("Accept-Language", accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Body.String()
	}
	h := newH(nil)
	for _, c := range []struct{ path, accept, lang, want string }{
		{"/auth/signin", "", "en", "Sign in with Konto"},
		{"/auth/signin", "de-DE,de;q=0.9,en;q=0.5", "de", "Mit Konto anmelden"},
		{"/auth/signin", "fr, de;q=0.5", "de", "Passwort vergessen?"},
		{"/auth/signout", "de", "de", "Möchten Sie sich wirklich abmelden?"},
		{"/auth/error?error=AccessDenied", "de", "de", "Sie haben keine Berechtigung, sich anzumelden."},
		{"/auth/verify-request", "de", "de", "Prüfen Sie Ihre E-Mails"},
		{"/auth/members/sign-up", "de", "de", "Konto anlegen"},
		{"/auth/members/forgot", "de", "de", "Link senden"},
		{"/auth/no-such-route", "de", "de", "Unter dieser Adresse gibt es nichts."},
		{"/auth/no-such-route", "", "en", "There is nothing at this address."},
	} {
		body := get(h, c.path, c.accept)
		if !strings.Contains(body, `<html lang="`+c.lang+`"`) || !strings.Contains(body, c.want) {
			t.Errorf("GET %s, Accept-Language %q: want lang %s and %q:\n%s", c.path, c.accept, c.lang, c.want, body)
		}
	}
	// Config.Language wins over Accept-Language; "" defers to it.
	h = newH(func(r *http.Request) string { return r.URL.Query().Get("lang") })
	if body := get(h, "/auth/signin?lang=en", "de"); !strings.Contains(body, `<html lang="en"`) {
		t.Errorf("Language en: %s", body)
	}
	if body := get(h, "/auth/signin?lang=de", "en"); !strings.Contains(body, `<html lang="de"`) {
		t.Errorf("Language de: %s", body)
	}
	if body := get(h, "/auth/signin", "de"); !strings.Contains(body, `<html lang="de"`) {
		t.Errorf("Language empty, Accept-Language de: %s", body)
	}
}

// TestReplacedPages: with the signed-in user's, two-factor and
// password-account pages in Config.Pages, a GET of each built-in page
// answers 303 to the application's route with the same query, and the
// POST routes keep working for the application's forms: a refused form
// comes back to its route with error=PasswordForm, the "check your
// e-mail" answer goes to CheckEmail, and a JSON client is answered as
// before.
func TestReplacedPages(t *testing.T) {
	own := gatehouse.Pages{Accounts: "/me/accounts", Sessions: "/me/sessions", TwoFactorSetup: "/me/2fa", TwoFactor: "/2fa-code",
		SignUp: "/join", ForgotPassword: "/forgot", ResetPassword: "/reset", ChangePassword: "/me/password", CheckEmail: "/check-inbox"}
	a := newPwApp(t, func(c *gatehouse.Config, _ *passwordaccount.Config) { c.Pages = own })
	b := newBrowser(t)
	const query = "callbackUrl=%2Fdashboard&error=X&token=abc"
	for path, want := range map[string]string{
		"/auth/accounts": own.Accounts, "/auth/sessions": own.Sessions, "/auth/two-factor/setup": own.TwoFactorSetup,
		"/auth/two-factor": own.TwoFactor, "/auth/password/sign-up": own.SignUp, "/auth/password/forgot": own.ForgotPassword,
		"/auth/password/reset": own.ResetPassword, "/auth/password/change": own.ChangePassword,
	} {
		resp := b.Get(a.url + path + "?" + query)
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != want+"?"+query {
			t.Errorf("GET %s: %d to %q, want 303 to %s?%s", path, resp.StatusCode, loc, want, query)
		}
	}

	redirect := func(resp *http.Response) string {
		t.Helper()
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d, want 303", resp.Request.URL, resp.StatusCode)
		}
		return resp.Header.Get("Location")
	}
	// A refused sign-up form (the password is too short), then a good one.
	if loc := redirect(a.postAs(b, "password/sign-up", url.Values{"email": {"ann@example.com"}, "password": {"short"}, "callbackUrl": {"/dashboard"}}, true)); loc != "/join?callbackUrl="+url.QueryEscape(a.url+"/dashboard")+"&error=PasswordForm" {
		t.Errorf("refused sign-up sent to %q", loc)
	}
	if loc := redirect(a.postAs(b, "password/sign-up", url.Values{"email": {"ann@example.com"}, "password": {"correct horse battery"}}, true)); loc != "/check-inbox?type=sign-up" {
		t.Errorf("sign-up sent to %q", loc)
	}
	verify := a.next(passwordaccount.KindVerify)
	if loc := redirect(a.postAs(b, "password/forgot", url.Values{"email": {"ann@example.com"}}, true)); loc != "/check-inbox?type=forgot" {
		t.Errorf("forgot sent to %q", loc)
	}
	a.next(passwordaccount.KindReset)
	// A JSON client is answered as before.
	if code, v := jsonOf(t, a.postAs(b, "password/forgot", url.Values{"email": {"ann@example.com"}}, false)); code != http.StatusOK || v["code"] != "check_email" {
		t.Errorf("JSON forgot: %d %v", code, v)
	}
	a.next(passwordaccount.KindReset)
	// The verify link (no page of its own) still signs in.
	if final, _ := b.FollowBody(b.Get(verify.URL)); a.signedIn(b) != "ann@example.com" {
		t.Errorf("the confirmation link landed on %s, signed in as %q", final.Request.URL, a.signedIn(b))
	}
}
