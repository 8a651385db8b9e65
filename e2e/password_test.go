package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPasswordAccount goes through the password accounts of the example
// as a person would: creates an account from the sign-in page's link,
// follows the confirmation link from the development outbox (which signs
// them in), signs out, asks for a reset, follows that link, sets a new
// password, and then sees the old password refused and the new one
// accepted. The sign-up and reset pages are checked for accessibility and
// photographed.
func TestPasswordAccount(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	base := startExample(t, map[string]string{"DEV": "1"})
	const addr, oldPassword, newPassword = "pat@example.com", "correct horse battery", "a brand new passphrase"

	// Sign-up, from the sign-in page's link.
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	resp := click(t, ctx, `a[href$="/auth/password/sign-up"]`)
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Create an account")
	checkAccessible(t, ctx, "sign-up page")
	shootPage(t, ctx, "password-signup")
	typeInto(t, ctx, `#password-email`, addr)
	typeInto(t, ctx, `#password-name`, "Pat Example")
	typeInto(t, ctx, `#password-new`, oldPassword)
	resp = click(t, ctx, `form[action$="/auth/password/sign-up"] button[type="submit"]`)
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Check your email")
	checkAccessible(t, ctx, "check-your-email page")
	shootPage(t, ctx, "password-check-email")

	// The confirmation link signs in.
	openOutboxLink(t, ctx, base, "/auth/password/verify")
	mustBody(t, ctx, "Signed in as Pat Example")

	// Sign out.
	load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	mustBody(t, ctx, "You are not signed in")

	// "Forgot your password?", then the reset link.
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	click(t, ctx, `a[href$="/auth/password/forgot"]`)
	typeInto(t, ctx, `#password-email`, addr)
	resp = click(t, ctx, `form[action$="/auth/password/forgot"] button[type="submit"]`)
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Check your email")
	resp = openOutboxLink(t, ctx, base, "/auth/password/reset")
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Choose a new password")
	checkAccessible(t, ctx, "reset page")
	wantResetFocus(t, ctx)
	shootPage(t, ctx, "password-reset")
	typeInto(t, ctx, `#password-new`, newPassword)
	resp = click(t, ctx, `form[action$="/auth/password/reset"] button[type="submit"]`)
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Password changed")

	// The old password is refused, the new one signs in.
	signInWithPassword := func(pw string) {
		t.Helper()
		load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin?callbackUrl=%2Fprivate"))
		typeInto(t, ctx, `#password-0-email`, addr)
		typeInto(t, ctx, `#password-0-password`, pw)
		click(t, ctx, `form[action$="/auth/callback/password"] button[type="submit"]`)
	}
	signInWithPassword(oldPassword)
	if u := wantPath(t, ctx, "/auth/signin"); u.Query().Get("error") != "CredentialsSignin" {
		t.Fatalf("the old password gave %s", u)
	}
	wantRefusedForm(t, ctx, addr)
	checkAccessible(t, ctx, "refused password sign-in")
	signInWithPassword(newPassword)
	wantPath(t, ctx, "/private")
	mustBody(t, ctx, addr, "Change your password")
}

// wantResetFocus checks the reset page as a browser draws it: the
// username input kept for password managers is hidden (not drawn, no
// box), and the first Tab from the top of the page reaches the new
// password, not that input.
func wantResetFocus(t *testing.T, ctx context.Context) {
	t.Helper()
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(() => {
		const e = document.querySelector('input[name="username"][hidden]');
		if (!e) return {found: false};
		const r = e.getBoundingClientRect();
		return {found: true, display: getComputedStyle(e).display, width: r.width, height: r.height};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if hidden["found"] != true || hidden["display"] != "none" || hidden["width"] != 0.0 || hidden["height"] != 0.0 {
		t.Errorf("the reset page's hidden username input is drawn: %v", hidden)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.activeElement && document.activeElement.blur(), window.focus(), true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if id, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id || document.activeElement.name || document.activeElement.tagName`)); id != "password-new" {
		t.Errorf("the first Tab on the reset page reaches %q, want the new password (password-new)", id)
	}
}

// wantRefusedForm checks the sign-in page after a wrong password: the
// address typed is still there, the password is not, the error is
// announced (role=alert) and tied to both inputs (aria-invalid,
// aria-describedby naming the message in the form), and focus waits in
// the password input.
func wantRefusedForm(t *testing.T, ctx context.Context, addr string) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`(() => {
		const email = document.getElementById("password-0-email");
		const pw = document.getElementById("password-0-password");
		const msg = document.getElementById(pw.getAttribute("aria-describedby") || "-");
		const alert = document.querySelector('[role="alert"]');
		return {
			email: email.value, password: pw.value,
			emailInvalid: email.getAttribute("aria-invalid") || "", passwordInvalid: pw.getAttribute("aria-invalid") || "",
			emailDescribed: email.getAttribute("aria-describedby") || "", passwordDescribed: pw.getAttribute("aria-describedby") || "",
			message: msg ? msg.innerText : "", visible: msg && msg.getBoundingClientRect().height > 0 ? "yes" : "no",
			alert: alert ? alert.innerText : "", focus: document.activeElement.id,
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	const message = "Sign-in failed. Check the details you provided are correct."
	for k, want := range map[string]string{
		"email": addr, "password": "", "emailInvalid": "true", "passwordInvalid": "true",
		"emailDescribed": "password-0-error", "passwordDescribed": "password-0-error",
		"message": message, "visible": "yes", "alert": message, "focus": "password-0-password",
	} {
		if got[k] != want {
			t.Errorf("after a wrong password, %s = %q, want %q", k, got[k], want)
		}
	}
}

// openOutboxLink opens the example's development outbox and follows the
// newest link whose path is path; the messages are sent just after the
// answer, so it looks again for a few seconds.
func openOutboxLink(t *testing.T, ctx context.Context, base, path string) *network.Response {
	t.Helper()
	sel := `a[href*="` + path + `?"]`
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		load(t, ctx, "opening the outbox", chromedp.Navigate(base+"/dev/mail"))
		if count(t, ctx, sel) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox has no %s link: %q", path, bodyText(t, ctx))
		}
	}
	return click(t, ctx, sel)
}
