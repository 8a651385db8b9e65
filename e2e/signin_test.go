package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSignInAndOut is the whole round trip a visitor makes: the protected
// page sends them to the built-in sign-in page, "Sign in with Development"
// takes them to the provider, choosing a user brings them back to the
// protected page signed in, and the sign-out confirmation page signs them
// out.
func TestSignInAndOut(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)

	// The protected page redirects to the sign-in page, remembering where
	// the visitor wanted to go.
	resp := load(t, ctx, "opening /private", chromedp.Navigate(base+"/private"))
	wantStatus(t, resp, 200)
	u := wantPath(t, ctx, "/auth/signin")
	if got := u.Query().Get("callbackUrl"); got != "/private" {
		t.Errorf("callbackUrl = %q, want /private", got)
	}
	wantText(t, ctx, "h1", "Sign in")
	wantText(t, ctx, "button.provider > span:last-child", "Sign in with Development")
	checkAccessible(t, ctx, "sign-in page")
	shootPage(t, ctx, "signin")

	// The provider's page, then back: the protected page, signed in.
	resp = signInAsAlice(t, ctx)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/private")
	mustShow(t, ctx, "h1", "Private page")
	wantBody(t, ctx, "Alice Example", "alice@example.com")

	// The sign-out confirmation page.
	resp = load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	wantStatus(t, resp, 200)
	wantText(t, ctx, "h1", "Sign out")
	wantText(t, ctx, ".card p", "Are you sure you want to sign out?")
	checkAccessible(t, ctx, "sign-out page")
	shootPage(t, ctx, "signout")

	// Cancel keeps the session.
	resp = click(t, ctx, `a.btn.secondary`)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/")
	mustBody(t, ctx, "Signed in as Alice Example")

	// Sign out for real, from the confirmation page.
	load(t, ctx, "opening the sign-out page again", chromedp.Navigate(base+"/auth/signout"))
	resp = click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	wantStatus(t, resp, 200)
	wantBody(t, ctx, "You are not signed in.")

	// Signed out for real: the protected page sends us to sign in again.
	load(t, ctx, "opening /private again", chromedp.Navigate(base+"/private"))
	wantPath(t, ctx, "/auth/signin")
}

// TestSignInFromTemplateHelper signs in with the button that the
// application's own page draws with the {{signIn "development"}}
// template helper: it must post what the built-in page posts (the CSRF
// token and the callback URL) and land back on the page it came from.
func TestSignInFromTemplateHelper(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)

	load(t, ctx, "opening the home page", chromedp.Navigate(base+"/"))
	click(t, ctx, `form[action="/auth/signin/development"] button`)
	resp := chooseDevUser(t, ctx, "bob")
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/")
	wantBody(t, ctx, "Signed in as Bob Example")
}

// TestSignInWithKeyboard reaches the provider button with the Tab key
// and presses Enter, as someone who does not use a mouse would. The
// focused button must show a visible focus ring.
func TestSignInWithKeyboard(t *testing.T) {
	t.Parallel()
	ctx, _ := openSignInPage(t, nil, "?callbackUrl=%2Fprivate")

	focused := ""
	for i := 0; i < 5 && focused != "Sign in with Development"; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		var err error
		focused, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const b = document.activeElement.closest("button.provider");
			return b ? b.lastElementChild.innerText.trim() : document.activeElement.outerHTML.slice(0, 80);
		})()`))
		if err != nil {
			t.Fatal(err)
		}
	}
	if focused != "Sign in with Development" {
		t.Fatalf("Tab never reached the provider button; focus is on %q", focused)
	}
	// The focus ring: an outline at least 2px wide, in a colour, not none.
	ring, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`(() => {
		const s = getComputedStyle(document.activeElement);
		return {style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor, visible: String(document.activeElement.matches(":focus-visible"))};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if ring["visible"] != "true" || ring["style"] == "none" || ring["width"] == "0px" || ring["width"] == "1px" {
		t.Errorf("the focused provider button has no clear focus ring: %v", ring)
	}
	shootViewport(t, ctx, "signin-focus", phone, "light")

	resp := load(t, ctx, "pressing Enter", chromedp.KeyEvent(kb.Enter))
	wantStatus(t, resp, 200)
	resp = chooseDevUser(t, ctx, "alice")
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/private")
}
