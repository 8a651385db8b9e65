package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// addVirtualAuthenticator gives the tab a platform authenticator driven
// over the DevTools protocol: CTAP2, built in ("internal"), with
// discoverable credentials and user verification that succeeds, so
// passkeys are created and used without a person touching anything.
func addVirtualAuthenticator(t *testing.T, ctx context.Context) webauthn.AuthenticatorID {
	t.Helper()
	var id webauthn.AuthenticatorID
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{
				Protocol:                    webauthn.AuthenticatorProtocolCtap2,
				Ctap2version:                webauthn.Ctap2versionCtap21,
				Transport:                   webauthn.AuthenticatorTransportInternal,
				HasResidentKey:              true,
				HasUserVerification:         true,
				IsUserVerified:              true,
				AutomaticPresenceSimulation: true,
			},
		})
		if err != nil {
			return err
		}
		id = res.AuthenticatorID
		return nil
	}))
	if err != nil {
		t.Fatalf("adding a virtual authenticator: %v", err)
	}
	return id
}

// credentials returns what the virtual authenticator holds.
func credentials(t *testing.T, ctx context.Context, id webauthn.AuthenticatorID) []*webauthn.Credential {
	t.Helper()
	var out []*webauthn.Credential
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: id})
		if err != nil {
			return err
		}
		out = res.Credentials
		return nil
	}))
	if err != nil {
		t.Fatalf("reading the virtual authenticator: %v", err)
	}
	return out
}

// waitText waits until the element matching sel shows text containing
// want, and fails the test with what it shows otherwise.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		got, _ = textOf(tctx, sel)
		cancel()
		if strings.Contains(got, want) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body"), chromedp.NodeVisible))
	t.Fatalf("at %s, %s shows %q, want %q; the page says:\n%s", loc, sel, got, want, body)
}

// TestPasskeyInBrowser: in headless Chromium with a virtual authenticator,
// a person signs in with the development provider, adds a passkey on the
// private page, signs out, and signs in again with the passkey from the
// built-in sign-in page. The site is reached as localhost: WebAuthn needs
// a domain for the RP id, and http://localhost is a secure context.
func TestPasskeyInBrowser(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	port := freePort(t)
	startExample(t, map[string]string{"ADDR": "localhost:" + port})
	site := "http://localhost:" + port
	auth := addVirtualAuthenticator(t, ctx)

	// 1. Sign in with the development provider.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(site+"/"),
		chromedp.Click(chromedp.CSS(`form[action="/auth/signin/development"] button`)),
		chromedp.Click(chromedp.CSS(`button[name="authtest_user"][value="alice"]`)),
	); err != nil {
		t.Fatalf("signing in with the development provider: %v", err)
	}
	waitText(t, ctx, "body", "Signed in as Alice Example")

	// 2. Add a passkey on the private page.
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/private")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#passkeys", "0")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#add-passkey"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#passkeys", "1")
	creds := credentials(t, ctx, auth)
	if len(creds) != 1 || !creds[0].IsResidentCredential || creds[0].RpID != "localhost" {
		t.Fatalf("the authenticator holds %d credentials (%+v), want one discoverable credential for localhost", len(creds), creds)
	}
	screenshot(t, ctx, "passkey-added")

	// 3. Sign out, from the home page.
	signOut := func() {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(site+"/"), chromedp.Click(chromedp.CSS(`form[action="/auth/signout"] button`))); err != nil {
			t.Fatal(err)
		}
		waitText(t, ctx, "body", "You are not signed in")
	}
	signOut()

	// 4. Sign in with the passkey button of the built-in sign-in page. The
	// authenticator stops answering while the page loads, so that the
	// autofill request (conditional UI) stays pending; the click aborts it
	// and asks for the passkey in a request of its own.
	setPresence(t, ctx, auth, false)
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/auth/signin?callbackUrl=%2Fprivate")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "form[data-webauthn] button", "Sign in with Passkey")
	screenshot(t, ctx, "passkey-signin")
	setPresence(t, ctx, auth, true)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`form[data-webauthn] button[data-action="authenticate"]`))); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "h1", "Private page")
	waitText(t, ctx, "body", "alice@example.com")
	c := credentials(t, ctx, auth)
	if len(c) != 1 || c[0].SignCount < 1 {
		t.Fatalf("after the sign-in the credential's sign count is %v, want it used", c)
	}
	used := c[0].SignCount

	// 5. Sign out, and sign in by autofill alone: opening the sign-in page
	// starts a conditional request, which the authenticator answers.
	signOut()
	if err := chromedp.Do(ctx, chromedp.Navigate(site+"/auth/signin?callbackUrl=%2Fprivate")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "h1", "Private page")
	waitText(t, ctx, "body", "alice@example.com")
	if c := credentials(t, ctx, auth); c[0].SignCount <= used {
		t.Fatalf("the sign count did not advance (%v after %v): the autofill sign-in did not use the passkey", c[0].SignCount, used)
	}
}

// setPresence turns the virtual authenticator's automatic user presence
// on or off.
func setPresence(t *testing.T, ctx context.Context, id webauthn.AuthenticatorID, on bool) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, webauthn.SetAutomaticPresenceSimulation, webauthn.SetAutomaticPresenceSimulationParams{AuthenticatorID: id, Enabled: on})
		return err
	}))
	if err != nil {
		t.Fatalf("setting automatic presence to %v: %v", on, err)
	}
}
