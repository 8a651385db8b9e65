package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// setAcceptLanguage makes the browser send Accept-Language: lang with
// every request, as a browser set to that language does.
func setAcceptLanguage(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
			Headers: network.Headers{"Accept-Language": lang},
		})
		return err
	}))
	if err != nil {
		t.Fatalf("setting Accept-Language: %v", err)
	}
}

// TestPagesInGerman visits the built-in pages with Accept-Language: de,
// signed out and signed in, and checks each is German: its lang
// attribute, its heading, and none of a few English sentences. (TestAxe
// saves the German screenshots.)
func TestPagesInGerman(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	ctx := newBrowser(t)
	setAcceptLanguage(t, ctx, "de-DE,de;q=0.9,en;q=0.5")
	check := func(path, heading string) {
		t.Helper()
		load(t, ctx, "opening "+path, chromedp.Navigate(base+path))
		lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
		if err != nil {
			t.Fatal(err)
		}
		if lang != "de" {
			t.Errorf("%s: lang = %q, want de", path, lang)
		}
		wantText(t, ctx, "h1", heading)
		text := bodyText(t, ctx)
		for _, en := range []string{"Sign in with", "Back to sign-in", "Sign out", "Your sessions", "Linked accounts", "Try signing in"} {
			if strings.Contains(text, en) {
				t.Errorf("%s: English %q on the German page: %q", path, en, text)
			}
		}
	}
	check("/auth/signin", "Anmelden")
	check("/auth/error?error=InvalidCheck", "Anmeldung nicht möglich")
	check("/auth/verify-request", "Prüfen Sie Ihre E-Mails")
	check("/auth/password/sign-up", "Konto erstellen")
	check("/auth/password/forgot", "Passwort vergessen?")

	// Signed in: sign-out, sessions, linked accounts, two-factor settings.
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	signInAsAlice(t, ctx)
	check("/auth/signout", "Abmelden")
	check("/auth/sessions", "Ihre Sitzungen")
	check("/auth/accounts", "Verknüpfte Konten")
	check("/auth/two-factor/setup", "Zwei-Faktor-Authentifizierung")

	// Two-factor: enrolling, a wrong code, the backup codes, and the
	// challenge at the next sign-in, with the messages the handler adds.
	wantText := func(what, want string) {
		t.Helper()
		wantBody(t, ctx, want)
	}
	click(t, ctx, `form[action$="/two-factor/enroll"] button`)
	mustText(t, ctx, ".secret") // the QR code page, waited for
	wantText("enrolling", "Scannen Sie diesen Code")
	typeInto(t, ctx, "#code", "12")
	click(t, ctx, `form[action$="/two-factor/confirm"] button`)
	wantText("a wrong code", "Dieser Code stimmt nicht.")
	click(t, ctx, `form[action$="/two-factor/enroll"] button`)
	secret := mustText(t, ctx, ".secret")
	typeInto(t, ctx, "#code", totpCode(t, secret, time.Now()))
	click(t, ctx, `form[action$="/two-factor/confirm"] button`)
	wantText("the backup codes", "Bewahren Sie diese Ersatzcodes sicher auf.")
	wantText("the backup codes", "Die Zwei-Faktor-Anmeldung ist eingeschaltet.")
	load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	signInAsAlice(t, ctx)
	wantPath(t, ctx, "/auth/two-factor")
	wantText("the challenge", "Code aus Ihrer Authenticator-App oder ein Ersatzcode")
	typeInto(t, ctx, "#code", "12")
	click(t, ctx, `form[action$="/two-factor"] button`)
	wantText("a wrong code at sign-in", "Dieser Code stimmt nicht.")
}
