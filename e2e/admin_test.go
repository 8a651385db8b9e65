package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAdminBan walks the built-in admin pages in two browsers. Bob signs
// in; Alice, an administrator in the example's development setup, opens
// the list of users (the two of them), searches for Bob, opens his page
// (his account and his session) and bans him with a reason shown to him.
// His page then says he is banned, the banned filter of the list finds
// him, and his browser is signed out: its next sign-in ends on the error
// page with the reason.
func TestAdminBan(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	bob := newBrowser(t)
	load(t, bob, "opening /private as Bob", chromedp.Navigate(base+"/private"))
	wantStatus(t, click(t, bob, `form[action$="/signin/development"] button`), 200)
	wantStatus(t, chooseDevUser(t, bob, "bob"), 200)
	wantPath(t, bob, "/private")
	alice := signedInBrowser(t, base, " as Alice")
	const list = "/auth/admin/users"

	wantStatus(t, load(t, alice, "opening the list of users", chromedp.Navigate(base+list)), 200)
	mustShow(t, alice, "h1", "Users")
	if rows := texts(t, alice, ".row"); len(rows) != 2 || !containsText(rows, "alice@example.com") || !containsText(rows, "bob@example.com") {
		t.Fatalf("the list of users is %q, want Alice and Bob", rows)
	}
	checkAccessible(t, alice, "admin list of users")
	shootPage(t, alice, "admin-users")
	typeInto(t, alice, "#admin-search", "bob")
	wantStatus(t, click(t, alice, `form[role="search"] button[type="submit"]`), 200)
	if u := wantPath(t, alice, list); u.Query().Get("search") != "bob" {
		t.Fatalf("searching came to %s", u)
	}
	rows := texts(t, alice, ".row")
	if len(rows) != 1 || !containsText(rows, "bob@example.com") {
		t.Fatalf("the search for bob lists %q", rows)
	}
	checkAccessible(t, alice, "admin list of users, searched")

	wantStatus(t, click(t, alice, `.row a`), 200)
	mustShow(t, alice, "h1", "Bob Example")
	// Before the ban: his account and his session, with their forms.
	if rows := texts(t, alice, ".row"); !containsText(rows, "development") || count(t, alice, `form[action$="/revoke-session"] button`) != 1 {
		t.Fatalf("Bob's page lists %q, want his account and one session", rows)
	}
	checkAccessible(t, alice, "admin user page")
	shootPage(t, alice, "admin-user")
	typeInto(t, alice, "#ban-reason", "Spam in the comments")
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS("#ban-show"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS("#ban-expires"), "86400")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form[action$="/ban"] button[type="submit"]`), 200)
	if u := location(t, alice); u.Query().Get("done") != "ban" {
		t.Fatalf("banning came back to %s", u)
	}
	wantText(t, alice, `p[role="status"]`, "The user was banned and signed out everywhere.")
	wantBody(t, alice, "Suspended", "Reason: Spam in the comments", "Lift the ban")
	checkAccessible(t, alice, "admin user page, banned")
	shootPage(t, alice, "admin-user-banned")

	wantStatus(t, load(t, alice, "opening the banned users", chromedp.Navigate(base+list+"?banned=1")), 200)
	if rows := texts(t, alice, ".row"); len(rows) != 1 || !containsText(rows, "bob@example.com") {
		t.Errorf("the banned filter lists %q", rows)
	}

	// Bob is signed out, and cannot sign in again.
	load(t, bob, "opening /private as Bob, banned", chromedp.Navigate(base+"/private"))
	wantPath(t, bob, "/auth/signin")
	wantStatus(t, click(t, bob, `form[action$="/signin/development"] button`), 200)
	wantStatus(t, chooseDevUser(t, bob, "bob"), 403)
	wantPath(t, bob, "/auth/error")
	wantBody(t, bob, "This account is suspended.", "Reason: Spam in the comments", "The suspension ends on")
	checkAccessible(t, bob, "error page, banned")
	shootPage(t, bob, "error-banned")
}
