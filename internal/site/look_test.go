package site

import (
	"errors"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestCheckLook: a page route on another origin, a theme colour and a
// provider's style the pages could not use are each refused as a
// ConfigError naming the field (and the provider); good values pass.
func TestCheckLook(t *testing.T) {
	good := []Styled{{ID: "github", Style: providers.Style{BrandColor: "#24292f"}}}
	if err := CheckLook(Pages{SignIn: "/login"}, "https://app.example/auth", pages.Theme{BrandColor: "#0f766e"}, good); err != nil {
		t.Fatalf("good values: %v", err)
	}
	for _, tc := range []struct {
		name            string
		p               Pages
		theme           pages.Theme
		styles          []Styled
		provider, field string
	}{
		{"page elsewhere", Pages{Error: "https://evil.example/oops"}, pages.Theme{}, good, "", "Pages.Error"},
		{"theme", Pages{}, pages.Theme{BrandColor: "red; background: url(x)"}, good, "", "Theme.BrandColor"},
		{"style", Pages{}, pages.Theme{}, []Styled{{ID: "corp", Style: providers.Style{BrandColor: "not a colour"}}}, "corp", "Style.BrandColor"},
	} {
		err := CheckLook(tc.p, "https://app.example/auth", tc.theme, tc.styles)
		var ce *autherr.ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || ce.Provider != tc.provider {
			t.Errorf("%s: %v, want a ConfigError for %s %s", tc.name, err, tc.provider, tc.field)
		}
	}
}
