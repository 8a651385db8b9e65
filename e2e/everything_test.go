package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// everythingEnv configures the example with every kind of sign-in the
// sign-in page shows: six built-in OAuth/OIDC providers (five with a
// built-in logo, Azure AD B2C without one and with a long name), and, in
// development mode (DEV=1), an e-mail form, a credentials form and the
// password accounts' form with its two links. The
// built-in providers need no network until someone clicks them.
var everythingEnv = map[string]string{
	"DEV":            "1",
	"AUTH_GITHUB_ID": "e2e", "AUTH_GITHUB_SECRET": "e2e",
	"AUTH_GOOGLE_ID": "e2e", "AUTH_GOOGLE_SECRET": "e2e",
	"AUTH_GITLAB_ID": "e2e", "AUTH_GITLAB_SECRET": "e2e",
	"AUTH_DISCORD_ID": "e2e", "AUTH_DISCORD_SECRET": "e2e",
	"AUTH_APPLE_ID": "e2e", "AUTH_APPLE_SECRET": "e2e",
	"AUTH_AZURE_AD_B2C_ID": "e2e", "AUTH_AZURE_AD_B2C_SECRET": "e2e",
	"AUTH_AZURE_AD_B2C_ISSUER": "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0",
}

// TestSignInPageEverything shows the sign-in page with every kind of
// provider, checks it in the browser's terms (names, contrast in both
// schemes, labels, keyboard order and focus rings), and saves its
// screenshots.
func TestSignInPageEverything(t *testing.T) {
	t.Parallel()
	ctx, base := openSignInPage(t, everythingEnv, "")

	// The built-in logos are drawn, the site logo loaded (the CSP lets
	// it), and the provider without a logo has its initial.
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`({
		svgs: document.querySelectorAll("button.provider svg.logo path").length,
		badge: (document.querySelector("button.provider .badge") || {}).textContent || "",
		siteLogo: document.querySelector("img.site-logo").naturalWidth,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if drawn["svgs"] != float64(5) || drawn["badge"] != "A" || drawn["siteLogo"] == float64(0) {
		t.Errorf("logos: %v, want 5 built-in logos, the badge A (Azure AD B2C) and a loaded site logo", drawn)
	}

	// A label is what names each field: clicking it focuses the input.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`label[for="credentials-0-0"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if id, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "credentials-0-0" {
		t.Errorf("clicking the Username label focused %q", id)
	}

	checkAccessible(t, ctx, "sign-in page (everything)")

	// Tab reaches every control, in order, each with a focus ring.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	stops := tabThrough(t, ctx, "sign-in page (everything)", 30)
	var order []string
	for _, s := range stops {
		order = append(order, s.What)
	}
	want := []string{
		"button@/auth/signin/apple", "button@/auth/signin/azure-ad-b2c", "button@/auth/signin/discord",
		"button@/auth/signin/github", "button@/auth/signin/gitlab", "button@/auth/signin/google",
		"input[name=email]@/auth/signin/email", "button@/auth/signin/email",
		"input[name=username]@/auth/callback/credentials", "input[name=password]@/auth/callback/credentials", "button@/auth/callback/credentials",
		"input[name=email]@/auth/callback/password", "input[name=password]@/auth/callback/password", "button@/auth/callback/password",
		"a@/auth/password/sign-up", "a@/auth/password/forgot",
		"input[name=email]@/auth/callback/passkey", "button@/auth/callback/passkey",
	}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("Tab order:\n got %v\nwant %v", order, want)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	shootPage(t, ctx, "signin-everything")
}

// TestPasswordFormOnSignInPage types into the built-in page's password
// form: a wrong password brings the visitor back with a banner and the
// form still there; the right one, typed and submitted with Enter, signs
// them in.
func TestPasswordFormOnSignInPage(t *testing.T) {
	t.Parallel()
	ctx, _ := openSignInPage(t, map[string]string{"DEV": "1"}, "?callbackUrl=%2Fprivate")

	typeInto(t, ctx, `#credentials-0-0`, "demo")
	typeInto(t, ctx, `#credentials-0-1`, "not the password")
	resp := click(t, ctx, `form[action$="/callback/credentials"] button`)
	wantSignInError(t, ctx, resp, "CredentialsSignin", "Sign-in failed. Check the details you provided are correct.",
		"sign-in page after a wrong password", "signin-wrong-password")

	// The username typed is kept, the password is not; the error is tied
	// to both, and focus waits in the password input.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
		document.getElementById("credentials-0-0").value, document.getElementById("credentials-0-1").value,
		document.getElementById("credentials-0-0").getAttribute("aria-invalid"),
		document.getElementById("credentials-0-1").getAttribute("aria-describedby"),
		document.getElementById("credentials-0-error").innerText, document.activeElement.id]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"demo", "", "true", "credentials-0-error", "Sign-in failed. Check the details you provided are correct.", "credentials-0-1"}; !slices.Equal(got, want) {
		t.Errorf("after a wrong password, username, password, aria-invalid, aria-describedby, message, focus = %q, want %q", got, want)
	}
	// Enter in the password field submits the form.
	resp = load(t, ctx, "typing the password and Enter", chromedp.SendKeys(chromedp.CSS(`#credentials-0-1`), "demo\r", chromedp.NodeVisible))
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/private")
	wantBody(t, ctx, "Demo User")
}

// TestEmailFormLeadsToVerifyRequest fills in the built-in page's e-mail
// form: the visitor lands on "Check your email", and the link sent (to
// the example's development outbox) signs them in.
func TestEmailFormLeadsToVerifyRequest(t *testing.T) {
	t.Parallel()
	ctx, base := openSignInPage(t, map[string]string{"DEV": "1"}, "")

	typeInto(t, ctx, `#email-0`, "carol@example.com")
	resp := click(t, ctx, `form[action$="/signin/email"] button`)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/auth/verify-request")
	wantText(t, ctx, "h1", "Check your email")
	wantBody(t, ctx, "A sign-in link has been sent to your email address.")
	checkAccessible(t, ctx, "verify-request page")
	shootPage(t, ctx, "verify-request")

	// The link, as the example's outbox shows it.
	load(t, ctx, "opening the outbox", chromedp.Navigate(base+"/dev/mail"))
	resp = click(t, ctx, `a[href*="/auth/callback/email"]`)
	wantStatus(t, resp, 200)
	wantBody(t, ctx, "Signed in as", "carol@example.com")
}
