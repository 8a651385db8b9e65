package e2e

import (
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestErrorPageAfterAlteredState changes the state parameter on its way
// through the provider, as an attacker replaying someone else's callback
// would. The callback must refuse, and the visitor sees the error page
// with HTTP 400, a sentence they can act on and a way back.
func TestErrorPageAfterAlteredState(t *testing.T) {
	t.Parallel()
	ctx, _ := openSignInPage(t, nil, "")
	click(t, ctx, `form[action$="/signin/development"] button`)
	// The provider's form carries the authorization request, state
	// included, in hidden fields; it sends the state back unchanged.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`input[type="hidden"][name="state"]`), "forged-state")); err != nil {
		t.Fatalf("altering state on the provider's page: %v", err)
	}
	resp := chooseDevUser(t, ctx, "alice")

	wantStatus(t, resp, 400)
	u := wantPath(t, ctx, "/auth/error")
	if got := u.Query().Get("error"); got != "InvalidCheck" {
		t.Errorf("error type = %q, want InvalidCheck", got)
	}
	wantText(t, ctx, "h1", "Unable to sign in")
	const sentence = "The sign-in attempt could not be verified. Make sure cookies are enabled, then start again from the sign-in page."
	wantText(t, ctx, ".card p", sentence)
	wantBody(t, ctx, "Error code:")
	checkAccessible(t, ctx, "error page")
	shootPage(t, ctx, "error")

	// The way back: "Sign in" leads to the sign-in page.
	resp = load(t, ctx, `following "Sign in"`, chromedp.Click(chromedp.CSS(`a.btn.primary`), chromedp.NodeVisible))
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/auth/signin")
}

// TestCancelAtProviderShowsBanner presses Cancel on the provider's page.
// The provider answers error=access_denied; the visitor is back on the
// sign-in page with a banner and can try again at once.
func TestCancelAtProviderShowsBanner(t *testing.T) {
	t.Parallel()
	ctx, _ := openSignInPage(t, nil, "")
	click(t, ctx, `form[action$="/signin/development"] button`)
	resp := click(t, ctx, `button[name="authtest_cancel"]`)

	wantSignInError(t, ctx, resp, "OAuthCallbackError", "Try signing in with a different account.",
		"sign-in page with an error", "signin-error")

	// The buttons still work from here.
	resp = signInAsAlice(t, ctx)
	wantStatus(t, resp, 200)
	if h := mustText(t, ctx, "h1"); h != "Gatehouse example" && h != "Private page" {
		t.Errorf("after trying again, heading = %q", h)
	}
}

// TestErrorPageStatus opens the error page for types of each class
// directly and checks the status and sentence the visitor gets.
func TestErrorPageStatus(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, nil)
	for _, tc := range []struct {
		typ      string
		status   int64
		heading  string
		sentence string
	}{
		{"Configuration", 500, "Server error", "There is a problem with the server configuration. If you run this site, check the server logs for details."},
		{"AccessDenied", 403, "Access denied", "You do not have permission to sign in."},
		{"Verification", 403, "Link no longer valid", "The sign-in link is no longer valid. It may have been used already or it may have expired."},
		{"<script>", 400, "Unable to sign in", "Unable to sign in."},
	} {
		resp := load(t, ctx, "error page "+tc.typ, chromedp.Navigate(base+"/auth/error?error="+url.QueryEscape(tc.typ)))
		wantStatus(t, resp, tc.status)
		wantText(t, ctx, "h1", tc.heading)
		wantText(t, ctx, ".card p", tc.sentence)
	}
}
