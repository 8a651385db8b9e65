package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExampleSignInPageOpens checks the helpers themselves: the example
// starts, Chromium starts, and the built-in sign-in page offers the
// development provider.
func TestExampleSignInPageOpens(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if title != "Sign in" {
		t.Errorf("title = %q, want %q", title, "Sign in")
	}
	button, err := textOf(ctx, "form button.provider > span:last-child")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(button, "Sign in with Development") {
		t.Errorf("first provider button says %q, want \"Sign in with Development\"", button)
	}
}

// TestExampleLooksBuiltIn: the example's own pages share the built-in
// pages' look (pages.StyleSheet): the same background, card, heading and
// primary button colours, in both colour schemes.
func TestExampleLooksBuiltIn(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)
	const probe = `(() => {
		const s = (sel, p) => { const e = document.querySelector(sel); return e ? getComputedStyle(e)[p] : "missing " + sel; };
		return [s("body", "backgroundColor"), s("body", "fontFamily"), s(".card", "backgroundColor"), s(".card", "borderRadius"),
			s("h1", "fontSize"), s("h1", "color"), s("button.btn.primary", "backgroundColor"), s("button.btn.primary", "color"),
			s("button.btn.primary", "minHeight"), s(".site-logo", "maxHeight")].join(" | ");
	})()`
	for _, scheme := range []string{"light", "dark"} {
		look := map[string]string{}
		for _, path := range []string{"/", "/auth/signin"} {
			load(t, ctx, "opening "+path, chromedp.Navigate(base+path))
			if err := chromedp.Do(ctx, setColorScheme(scheme)); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](probe))
			if err != nil {
				t.Fatal(err)
			}
			look[path] = got
		}
		if look["/"] != look["/auth/signin"] || strings.Contains(look["/"], "missing") {
			t.Errorf("%s: the example's home page looks %q, the built-in sign-in page %q", scheme, look["/"], look["/auth/signin"])
		}
	}
}
