package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAccountsPage: the built-in linked accounts page, with the example
// offering two development providers and no e-mail sign-in. Signed in
// with one, it is the last way to sign in: listed, without an Unlink
// button. "Link Development (work)" on the page runs a sign-in started by
// this session and comes back to the page, which lists both with Unlink
// buttons; unlinking the first (confirmed on the page that asks, naming
// what remains) leaves the second, again the last way.
func TestAccountsPage(t *testing.T) {
	t.Parallel()
	base := startExample(t, map[string]string{"DEV_SECOND_PROVIDER": "1", "DEV_OUTBOX": "0"})
	ctx := signedInBrowser(t, base, "")

	resp := click(t, ctx, `a[href="/auth/accounts"]`)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/auth/accounts")
	mustShow(t, ctx, "h1", "Linked accounts")
	rows := linkedRows(t, ctx)
	if len(rows) != 1 || !strings.HasPrefix(rows[0], "Development\n") || !strings.Contains(rows[0], "only way to sign in") {
		t.Fatalf("linked accounts: %q", rows)
	}
	if n := count(t, ctx, `form[action*="/accounts/unlink/"]`); n != 0 {
		t.Fatalf("%d Unlink forms for the last way to sign in", n)
	}
	checkAccessible(t, ctx, "accounts page, one account")
	shootPage(t, ctx, "accounts-last-way")

	// Link the second provider from the page.
	resp = click(t, ctx, `form[action$="/signin/development-work"] button`)
	wantStatus(t, resp, 200)
	if u := location(t, ctx); u.Path != "/dev-work/authorize" {
		t.Fatalf("the Link button went to %s", u)
	}
	resp = chooseDevUser(t, ctx, "alice")
	wantStatus(t, resp, 200)
	if u := wantPath(t, ctx, "/auth/accounts"); u.Query().Get("linked") != "development-work" {
		t.Fatalf("linking came back to %s", u)
	}
	wantText(t, ctx, `[role="status"]`, "Linked Development (work).")
	rows = linkedRows(t, ctx)
	if len(rows) != 2 || count(t, ctx, `form[action*="/accounts/unlink/"] button`) != 2 {
		t.Fatalf("after linking: %q", rows)
	}
	if strings.Contains(bodyText(t, ctx), "Link another account") {
		t.Error("the page offers more to link when both are linked")
	}
	checkAccessible(t, ctx, "accounts page, two accounts")
	shootPage(t, ctx, "accounts")

	// Unlink the first: the page asks first, naming what remains.
	resp = click(t, ctx, `form[action$="/accounts/unlink/development"] button`)
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "#confirm-title", "Unlink Development?")
	if got := mustText(t, ctx, "#confirm-text"); !strings.Contains(got, "You can still sign in with: Development (work).") {
		t.Fatalf("confirmation text = %q", got)
	}
	checkAccessible(t, ctx, "accounts page, confirming an unlink")
	shootPage(t, ctx, "accounts-unlink-confirm")
	// Confirmed: back on the page, which says so.
	resp = click(t, ctx, `form:has(input[name="confirm"]) button`)
	wantStatus(t, resp, 200)
	if u := wantPath(t, ctx, "/auth/accounts"); u.Query().Get("unlinked") != "development" {
		t.Fatalf("unlinking came back to %s", u)
	}
	wantText(t, ctx, `[role="status"]`, "Unlinked Development.")
	rows = linkedRows(t, ctx)
	if len(rows) != 1 || !strings.HasPrefix(rows[0], "Development (work)\n") || count(t, ctx, `form[action*="/accounts/unlink/"]`) != 0 {
		t.Fatalf("after unlinking: %q", rows)
	}
	if count(t, ctx, `form[action$="/signin/development"] button`) != 1 {
		t.Error("the unlinked provider is not offered to link again")
	}
	// Still signed in, as the same user.
	load(t, ctx, "opening /private", chromedp.Navigate(base+"/private"))
	wantPath(t, ctx, "/private")
}

// linkedRows returns the text of each linked account on the accounts
// page.
func linkedRows(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return texts(t, ctx, ".linked .who")
}
