package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTwoFactorPages: Alice turns two-factor sign-in on from the settings
// page (QR code, first code, backup codes shown once); her next sign-in
// stops at the code form with no session, refuses a wrong code, and a
// backup code takes her where she was going.
func TestTwoFactorPages(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	ctx := signedInBrowser(t, base, "")

	resp := load(t, ctx, "opening the two-factor settings", chromedp.Navigate(base+"/auth/two-factor/setup"))
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Two-factor authentication")
	wantBackButton(t, ctx, "two-factor settings", "Back")
	resp = click(t, ctx, `form[action$="/two-factor/enroll"] button`)
	wantStatus(t, resp, 200)
	secret := mustText(t, ctx, ".secret")
	checkAccessible(t, ctx, "two-factor setup page")
	shootPage(t, ctx, "two-factor-setup")

	typeInto(t, ctx, "#code", totpCode(t, secret, time.Now()))
	resp = click(t, ctx, `form[action$="/two-factor/confirm"] button`)
	wantStatus(t, resp, 200)
	codes := texts(t, ctx, ".codes li")
	if len(codes) != 10 {
		t.Fatalf("backup codes shown: %q", codes)
	}
	checkAccessible(t, ctx, "backup codes page")
	shootPage(t, ctx, "two-factor-backup-codes")

	// Sign out, and in again: the first factor alone makes no session.
	load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	load(t, ctx, "opening /private", chromedp.Navigate(base+"/private"))
	resp = signInAsAlice(t, ctx)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/auth/two-factor")
	checkAccessible(t, ctx, "two-factor challenge")
	wantBackButton(t, ctx, "two-factor challenge", "Back to sign-in")
	shootPage(t, ctx, "two-factor-challenge")
	if s := bodyOf(t, ctx, base+"/auth/session"); s != "null" {
		t.Fatalf("a session before the second factor: %s", s)
	}
	load(t, ctx, "back to the code form", chromedp.Navigate(base+"/auth/two-factor"))

	typeInto(t, ctx, "#code", "000000")
	resp = click(t, ctx, `form[action$="/auth/two-factor"] button`)
	wantStatus(t, resp, 401)
	if got := mustText(t, ctx, `[role="alert"]`); !strings.HasPrefix(got, "That code is not right.") {
		t.Fatalf("banner after a wrong code: %q", got)
	}
	typeInto(t, ctx, "#code", codes[0])
	resp = click(t, ctx, `form[action$="/auth/two-factor"] button`)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/private")
}

// wantBackButton checks that the page's way back is the secondary button
// the other pages have, drawn as one (its box wider than its text).
func wantBackButton(t *testing.T, ctx context.Context, page, text string) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("a")].filter(a => a.innerText.trim().startsWith("Back")).map(a => a.className + "|" + a.innerText.trim() + "|" + getComputedStyle(a).display)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "btn secondary|"+text+"|flex" {
		t.Errorf("%s: the Back links are %q, want one secondary button %q", page, got, text)
	}
}

// bodyOf opens u and returns its body text.
func bodyOf(t *testing.T, ctx context.Context, u string) string {
	t.Helper()
	load(t, ctx, "opening "+u, chromedp.Navigate(u))
	return mustText(t, ctx, "body")
}

// totpCode is RFC 6238's TOTP with the defaults every authenticator app
// uses (SHA-1, 30 s, 6 digits), written here from the RFC rather than
// taken from the library under test.
func totpCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(strings.ReplaceAll(secret, " ", "")))
	if err != nil {
		t.Fatalf("the secret shown is not base32: %q", secret)
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(at.Unix()/30))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f // RFC 4226 §5.3 dynamic truncation
	v := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", v%1_000_000)
}
