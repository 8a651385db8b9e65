package pages_test

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// logosDigest is the SHA-256 of the logos the sign-in page drew for the
// built-in providers when it looked them up by id: one "<id> <path
// data>\n" line for each of the 61 providers with a logo, in id order.
// Refreshing the logos (providers/internal/gen/logos) changes it on
// purpose; nothing else may.
const logosDigest = "9d667ab8ae90489adceb79a8eb9f49a16e38ac8db1d7e542cd8b36b677d9a201"

// drawnIcon matches the inline logo of a provider button.
var drawnIcon = regexp.MustCompile(`<svg class="logo" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="currentColor" d="([^"]+)"></path></svg><span>`)

// TestBuiltinLogos renders the sign-in button of every built-in provider
// with the style its factory gives it, and checks the logos drawn: the
// same providers have one, with the same path data, as logosDigest
// records.
func TestBuiltinLogos(t *testing.T) {
	var buttons []pages.Button
	for _, id := range builtin.IDs() {
		factory, _ := builtin.Lookup(id)
		op, ok := factory(builtin.Options{ClientID: "x", ClientSecret: "y", Issuer: "https://issuer.example"}).(providers.OAuthProvider)
		if !ok {
			continue
		}
		o := op.OAuth()
		buttons = append(buttons, pages.Button{ID: o.ID, Name: o.Name, SigninURL: "/auth/signin/" + o.ID, Style: o.Style})
	}
	body := render(t, pages.SignIn{CSRFToken: "tok", OAuth: buttons})
	var lines []string
	for _, form := range strings.Split(body, `<form action="/auth/signin/`)[1:] {
		id, rest, _ := strings.Cut(form, `"`)
		rest, _, _ = strings.Cut(rest, "</form>")
		if m := drawnIcon.FindStringSubmatch(rest); m != nil {
			lines = append(lines, id+" "+m[1]+"\n")
		}
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "")))
	if got := hex.EncodeToString(sum[:]); len(lines) != 61 || got != logosDigest {
		t.Errorf("the built-in buttons draw %d logos, digest %s; want 61, %s", len(lines), got, logosDigest)
	}
}

// buttonRuleRe matches a provider button's colours in the style sheet.
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
	body := render(t, pages.SignIn{OAuth: buttons})
	rules := buttonRuleRe.FindAllStringSubmatch(body, -1)
	if len(rules) < 60 { // 68 built-ins have colours today, plus the 5 above
		t.Fatalf("only %d coloured buttons for %d providers", len(rules), len(buttons))
	}
	got := map[string]string{}
	for _, r := range rules {
		c, ok := pages.Contrast(r[3], r[2])
		if !ok {
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
