package pages_test

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

// The built-in providers' buttons, in an external test package: the
// providers' packages import the pages (through their flows).

import (
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// buttonRuleRe finds the buttons' colour rules in the style sheet.
var buttonRuleRe = regexp.MustCompile(`\.(provider-\d+) \{ --btn-bg: ([^;]+); --btn-fg: ([^;]+);`)

// TestButtonTextContrast renders a button for every built-in provider
// with its own style, and for styles whose text colour is unreadable,
// and checks the text colour the page gives each button against its
// background: at least 4.5:1 (WCAG 2.2 SC 1.4.3). Every built-in style
// must also pass ValidateStyle, or New would refuse the provider.
func TestButtonTextContrast(t *testing.T) {
	var buttons []pages.Button
	for _, id := range builtin.IDs() {
		factory, _ := builtin.Lookup(id)
		op, ok := factory(builtin.Options{ClientID: "x", ClientSecret: "y", Issuer: "https://issuer.example"}).(providers.OAuthProvider)
		if !ok {
			continue // e-mail, credentials and passkeys have no brand button style
		}
		o := op.OAuth()
		if err := pages.ValidateStyle(o.Style); err != nil {
			t.Errorf("built-in %s: style %+v: %v", id, o.Style, err)
		}
		buttons = append(buttons, pages.Button{ID: o.ID, Name: o.Name, SigninURL: "/auth/signin/" + o.ID, Style: o.Style})
	}
	buttons = append(buttons,
		pages.Button{ID: "a", Style: providers.Style{Bg: "#1da1f2", Text: "#fff"}},         // 2.8:1: replaced by black
		pages.Button{ID: "b", Style: providers.Style{BrandColor: "#777", Text: "#888"}},    // 1.3:1
		pages.Button{ID: "c", Style: providers.Style{BrandColor: "#fff", Text: "#0082C9"}}, // 4.1:1
		pages.Button{ID: "d", Style: providers.Style{BrandColor: "#000", Text: "#fff8"}},   // translucent
		pages.Button{ID: "e", Style: providers.Style{BrandColor: "#24292f", Text: "#fafafa"}},
	)
	rec := httptest.NewRecorder()
	if err := pages.Render(rec, 200, pages.SignIn{OAuth: buttons}); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	rules := buttonRuleRe.FindAllStringSubmatch(body, -1)
	if len(rules) < 60 { // 68 built-ins have colours today, plus the 5 above
		t.Fatalf("only %d coloured buttons for %d providers", len(rules), len(buttons))
	}
	got := map[string]string{}
	for _, r := range rules {
		c, opaque := pages.Contrast(r[3], r[2])
		if !opaque {
			t.Errorf("%s: text colour %s is not opaque", r[1], r[3])
			continue
		}
		if c < 4.5 {
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
