package gatehouse_test

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

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
	}
	for _, g := range good {
		if _, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Theme: g.theme, Providers: []providers.Provider{prov(g.style)}}); err != nil {
			t.Errorf("theme %+v style %+v: %v", g.theme, g.style, err)
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
	redirects := func(path string) *url.URL {
		t.Helper()
		resp := b.get(a.url + path)
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("GET %s: %d, want 302", path, resp.StatusCode)
		}
		u, _ := url.Parse(resp.Header.Get("Location"))
		return u
	}
	for _, tc := range []struct{ path, want string }{
		{"/auth/signin?callbackUrl=%2Fprivate", "/login?callbackUrl=%2Fprivate"},
		{"/private", "/login?callbackUrl=%2Fprivate"},
		{"/auth/signout", "/logout"},
		{"/auth/error?error=AccessDenied", "/oops?error=AccessDenied"},
		{"/auth/verify-request?provider=email&type=email", "/check-email?provider=email&type=email"},
	} {
		if got := redirects(tc.path); got.String() != tc.want {
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
