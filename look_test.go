package gatehouse_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
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
