package pages

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
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

var buttonRuleRe = regexp.MustCompile(`\.(provider-\d+) \{ --btn-bg: ([^;]+); --btn-fg: ([^;]+);`)

// TestButtonTextContrast renders a button for every built-in provider
// with its own style, and for styles whose text colour is unreadable,
// and checks the text colour the page gives each button against its
// background: at least 4.5:1 (WCAG 2.2 SC 1.4.3). Every built-in style
// must also pass ValidateStyle, or New would refuse the provider.
func TestButtonTextContrast(t *testing.T) {
	var buttons []Button
	for _, id := range builtin.IDs() {
		factory, _ := builtin.Lookup(id)
		op, ok := factory(builtin.Options{ClientID: "x", ClientSecret: "y", Issuer: "https://issuer.example"}).(providers.OAuthProvider)
		if !ok {
			continue // e-mail, credentials and passkeys have no brand button style
		}
		o := op.OAuth()
		if err := ValidateStyle(o.Style); err != nil {
			t.Errorf("built-in %s: style %+v: %v", id, o.Style, err)
		}
		buttons = append(buttons, Button{ID: o.ID, Name: o.Name, SigninURL: "/auth/signin/" + o.ID, Style: o.Style})
	}
	buttons = append(buttons,
		Button{ID: "a", Style: providers.Style{Bg: "#1da1f2", Text: "#fff"}},         // 2.8:1: replaced by black
		Button{ID: "b", Style: providers.Style{BrandColor: "#777", Text: "#888"}},    // 1.3:1
		Button{ID: "c", Style: providers.Style{BrandColor: "#fff", Text: "#0082C9"}}, // 4.1:1
		Button{ID: "d", Style: providers.Style{BrandColor: "#000", Text: "#fff8"}},   // translucent
		Button{ID: "e", Style: providers.Style{BrandColor: "#24292f", Text: "#fafafa"}},
	)
	body := render(t, 200, SignIn{OAuth: buttons}).Body.String()
	rules := buttonRuleRe.FindAllStringSubmatch(body, -1)
	if len(rules) < 60 { // 68 built-ins have colours today, plus the 5 above
		t.Fatalf("only %d coloured buttons for %d providers", len(rules), len(buttons))
	}
	got := map[string]string{}
	for _, r := range rules {
		bg, _ := parseColor(r[2])
		fg, ok := parseColor(r[3])
		if !ok || fg.a != 255 {
			t.Errorf("%s: text colour %s is not opaque", r[1], r[3])
			continue
		}
		if c := contrastRatio(fg, bg.overWhite()); c < 4.5 {
			t.Errorf("%s: %s on %s has contrast %.2f:1", r[1], r[3], r[2], c)
		}
		got[r[2]+" "+r[3]] = r[1]
	}
	// The unreadable explicit colours were replaced, the readable one kept.
	for _, want := range []string{"#1da1f2 #000", "#777 #000", "#fff #000", "#000 #fff", "#24292f #fafafa"} {
		if _, ok := got[want]; !ok {
			t.Errorf("no button rule with background and text %q", want)
		}
	}
}

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
