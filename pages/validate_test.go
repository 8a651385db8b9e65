package pages

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestThemeValidate(t *testing.T) {
	for _, tc := range []struct {
		theme Theme
		field string // "" for valid
	}{
		{Theme{}, ""},
		{Theme{ColorScheme: "AUTO"}, ""},
		{Theme{ColorScheme: "light", BrandColor: "#ffcc00", ButtonText: "#000", Logo: "/logo.svg"}, ""},
		{Theme{BrandColor: "navy"}, ""},
		{Theme{ButtonText: "#fff"}, ""}, // on the default brand colour: 6.1:1
		{Theme{ColorScheme: "system"}, "ColorScheme"},
		{Theme{BrandColor: "blue;"}, "BrandColor"},
		{Theme{BrandColor: "#00f", ButtonText: "#00f"}, "ButtonText"},
		{Theme{BrandColor: "#000", ButtonText: "#ffffff80"}, "ButtonText"}, // translucent
		{Theme{ButtonText: "url(x)"}, "ButtonText"},
		{Theme{Logo: "ftp://example.com/logo.png"}, "Logo"},
		{Theme{Logo: "https://user@example.com/logo.png"}, "Logo"},
	} {
		checkFieldError(t, tc.theme, tc.theme.Validate(), tc.field)
	}
}

func TestValidateStyle(t *testing.T) {
	for _, tc := range []struct {
		style providers.Style
		field string
	}{
		{providers.Style{}, ""},
		{providers.Style{Bg: "#1da1f2", Text: "#fff"}, ""}, // low contrast is fixed at render, not refused
		{providers.Style{BrandColor: "#1a73e8", Logo: "https://cdn.example.com/g.svg"}, ""},
		{providers.Style{BrandColor: "#1a73e8 !important"}, "BrandColor"},
		{providers.Style{Bg: "red}"}, "Bg"},
		{providers.Style{Text: "#12"}, "Text"},
		{providers.Style{Logo: "javascript:x"}, "Logo"},
		{providers.Style{Icon: "M12 .297c-6.63 0-12 5.373-12 12Z"}, ""},
		{providers.Style{Icon: `M0 0"/><script>alert(1)</script>`}, "Icon"},
		{providers.Style{Icon: "url(#x)"}, "Icon"},
	} {
		checkFieldError(t, tc.style, ValidateStyle(tc.style), tc.field)
	}
}

// checkFieldError checks err, what validating v returned: nil when field
// is "", else a FieldError for field.
func checkFieldError(t *testing.T, v any, err error, field string) {
	t.Helper()
	var fe *FieldError
	switch {
	case field == "" && err != nil:
		t.Errorf("%+v: %v", v, err)
	case field != "" && (!errors.As(err, &fe) || fe.Field != field):
		t.Errorf("%+v: err = %v, want a FieldError for %s", v, err, field)
	}
}

// buttonRuleRe matches a provider button's colours in the style sheet.
var buttonRuleRe = regexp.MustCompile(`\.(provider-\d+) \{ --btn-bg: ([^;]+); --btn-fg: ([^;]+);`)

// TestThemeButtonTextContrast: the theme's ButtonText is kept when
// readable and replaced otherwise.
func TestThemeButtonTextContrast(t *testing.T) {
	for _, tc := range []struct{ brand, text, want string }{
		{"#0f766e", "#fefefe", "#fefefe"},
		{"#0f766e", "#999", "#fff"},
		{"#ffcc00", "#fff", "#000"},
		{"", "#2f5bd3", "#fff"},
	} {
		body := render(t, 200, SignOut{Theme: Theme{BrandColor: tc.brand, ButtonText: tc.text}}).Body.String()
		if want := fmt.Sprintf("--on-brand: %s;", tc.want); !strings.Contains(body, want) {
			t.Errorf("brand %q text %q: want %s in the style sheet", tc.brand, tc.text, want)
		}
	}
}

// TestTextOnAlwaysReadable: for every opaque colour on a grid of the RGB
// cube, the automatic text colour reaches 4.5:1.
func TestTextOnAlwaysReadable(t *testing.T) {
	for r := 0; r < 256; r += 5 {
		for g := 0; g < 256; g += 5 {
			for b := 0; b < 256; b += 5 {
				bg := rgba{uint8(r), uint8(g), uint8(b), 255}
				fg := black
				if textOn(bg) == "#fff" {
					fg = white
				}
				if c := contrastRatio(bg, fg); c < 4.5 {
					t.Fatalf("textOn(%v) = %s: contrast %.3f", bg, textOn(bg), c)
				}
			}
		}
	}
}

// TestIsPathData: isPathData accepts exactly the bytes of SVG path data
// (the set the regular expression below names), each alone and in a
// drawing, and nothing empty.
func TestIsPathData(t *testing.T) {
	rule := regexp.MustCompile(`^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\- ]+$`)
	for c := range 256 {
		s := string([]byte{byte(c)})
		if got, want := isPathData(s), rule.MatchString(s); got != want {
			t.Errorf("isPathData(%q) = %v, want %v", s, got, want)
		}
		if isPathData("M0 0"+s) != rule.MatchString("M0 0"+s) {
			t.Errorf("isPathData(%q) differs from the rule", "M0 0"+s)
		}
	}
	for _, s := range []string{"", `M0 0"/><script>`, "M12 .297c-6.63 0-12 5.373-12 12z"} {
		if got, want := isPathData(s), rule.MatchString(s); got != want {
			t.Errorf("isPathData(%q) = %v, want %v", s, got, want)
		}
	}
}
