package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOrganizationInvitation walks an invitation through the built-in
// organization pages in two browsers. Alice, owner of the example's Acme,
// invites carol@example.com from Acme's settings page; Carol follows the
// link in the development outbox, is sent to sign in (by e-mail link,
// with that address) and back to the invitation, and accepts. She makes
// Acme her active organization on the switcher, and the example's
// /projects/delete (project:delete in the active organization) refuses
// her as a member; once Alice makes her an admin on the settings page,
// it lets her in. Then Alice creates a custom role that may only read
// projects and gives it to Carol, who is refused again; renames Acme; and
// creates an organization and deletes it, ticking the confirmation.
func TestOrganizationInvitation(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	alice := signedInBrowser(t, base, " as Alice")
	const acme = "/auth/organizations/acme"

	// Alice invites Carol from Acme's page.
	wantStatus(t, load(t, alice, "opening Acme's page", chromedp.Navigate(base+acme)), 200)
	mustShow(t, alice, "h1", "Acme")
	wantText(t, alice, "h1 + p", "Your role: owner")
	typeInto(t, alice, "#invite-email", "carol@example.com")
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS("#invite-role"), "member")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form[action$="/invitations"] button[type="submit"]`), 200)
	if u := wantPath(t, alice, acme); u.Query().Get("done") != "invited" {
		t.Fatalf("inviting came back to %s", u)
	}
	wantText(t, alice, `[role="status"]`, "Invitation sent.")
	if rows := texts(t, alice, ".row"); !containsText(rows, "carol@example.com") {
		t.Fatalf("the pending invitation is not listed: %q", rows)
	}
	checkAccessible(t, alice, "organization page, an invitation pending")
	shootPart(t, alice, "organization", membersPart)

	// Carol follows the link from the outbox, signed out.
	carol := newBrowser(t)
	wantStatus(t, openOutboxLink(t, carol, base, "/auth/organizations/invitation"), 200)
	mustShow(t, carol, "h1", "Invitation")
	wantBody(t, carol, "invites you to join Acme as member.", "Sign in as carol@example.com to accept or decline it.")
	if n := count(t, carol, "form"); n != 0 {
		t.Fatalf("%d forms on the invitation page before signing in", n)
	}
	checkAccessible(t, carol, "invitation page, signed out")
	shootPage(t, carol, "organization-invitation-signed-out")
	// Sign in by e-mail link with the invited address; back to the
	// invitation.
	wantStatus(t, click(t, carol, `a.btn.primary[href*="/auth/signin"]`), 200)
	wantPath(t, carol, "/auth/signin")
	typeInto(t, carol, `#email-0`, "carol@example.com")
	wantStatus(t, click(t, carol, `form[action$="/signin/email"] button`), 200)
	wantPath(t, carol, "/auth/verify-request")
	wantStatus(t, openOutboxLink(t, carol, base, "/auth/callback/email"), 200)
	wantPath(t, carol, "/auth/organizations/invitation")
	if n := count(t, carol, `form[action$="/organizations/invitation/accept"] button`); n != 1 {
		t.Fatalf("signed in as the invited address: %d Accept buttons; page: %s", n, bodyText(t, carol))
	}
	checkAccessible(t, carol, "invitation page")
	shootPage(t, carol, "organization-invitation")
	wantStatus(t, click(t, carol, `form[action$="/organizations/invitation/accept"] button`), 200)
	if u := wantPath(t, carol, acme); u.Query().Get("done") != "joined" {
		t.Fatalf("accepting came back to %s", u)
	}
	wantText(t, carol, `[role="status"]`, "You joined the organization.")
	wantText(t, carol, "h1 + p", "Your role: member")
	if n := count(t, carol, `form[action$="/role"], form[action$="/remove"], form[action$="/invitations"]`); n != 0 {
		t.Errorf("a member's page has %d forms to change others", n)
	}

	// Carol makes Acme active on the switcher.
	wantStatus(t, load(t, carol, "opening the switcher", chromedp.Navigate(base+"/auth/organizations")), 200)
	mustShow(t, carol, "h1", "Your organizations")
	wantStatus(t, click(t, carol, `form[action$="/organizations/active"] button`), 200)
	if u := wantPath(t, carol, "/auth/organizations"); u.Query().Get("done") != "active" {
		t.Fatalf("making active came back to %s", u)
	}
	wantText(t, carol, `[role="status"]`, "Active organization changed.")
	wantBody(t, carol, "Acme · active")
	checkAccessible(t, carol, "organization switcher")
	shootPage(t, carol, "organizations")

	// A member may not delete projects.
	wantStatus(t, load(t, carol, "opening /projects/delete", chromedp.Navigate(base+"/projects/delete")), 403)
	wantBody(t, carol, "missing_permission")

	// Alice makes Carol an admin on Acme's page.
	wantStatus(t, load(t, alice, "opening Acme's page", chromedp.Navigate(base+acme)), 200)
	if n := count(t, alice, `form[action$="/role"]`); n != 1 {
		t.Fatalf("Alice's page has %d role forms, want Carol's alone", n)
	}
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS(`form[action$="/role"] select`), "admin")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form[action$="/role"] button`), 200)
	if u := wantPath(t, alice, acme); u.Query().Get("done") != "role" {
		t.Fatalf("changing the role came back to %s", u)
	}
	wantText(t, alice, `[role="status"]`, "Role changed.")
	checkAccessible(t, alice, "organization page, two members")
	shootPart(t, alice, "organization-members", membersPart)

	// Now she may.
	wantStatus(t, load(t, carol, "opening /projects/delete", chromedp.Navigate(base+"/projects/delete")), 200)
	wantBody(t, carol, "You may delete projects in your active organization.")

	// Alice creates a custom role that may read projects, and gives it to
	// Carol.
	wantStatus(t, load(t, alice, "opening Acme's page", chromedp.Navigate(base+acme)), 200)
	typeInto(t, alice, "#role-name", "reader")
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS(`form[action$="/roles"] input[value="project:read"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form[action$="/roles"] button[type="submit"]`), 200)
	if u := wantPath(t, alice, acme); u.Query().Get("done") != "roleCreated" {
		t.Fatalf("creating a role came back to %s", u)
	}
	wantText(t, alice, `[role="status"]`, "Role created.")
	if rows := texts(t, alice, ".row"); !containsText(rows, "reader\nproject:read") && !containsText(rows, "reader project:read") {
		t.Errorf("the new role is not listed with its permission: %q", rows)
	}
	// Its Edit form, open.
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS(`details:has(form[action$="/roles/reader/update"]) summary`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if n := count(t, alice, `details[open] form[action$="/roles/reader/update"] input[name="permission"][value="project:read"]:checked`); n != 1 {
		t.Errorf("the open Edit form of reader has %d ticked project:read boxes, want 1", n)
	}
	checkAccessible(t, alice, "organization page, a custom role")
	shootPart(t, alice, "organization-roles", part{`.row:has(form[action$="/roles/reader/update"])`, `form[action$="/roles"]`})
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS(`form[action$="/role"] select`), "reader")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form[action$="/role"] button`), 200)
	if u := wantPath(t, alice, acme); u.Query().Get("done") != "role" {
		t.Fatalf("giving the custom role came back to %s", u)
	}
	wantStatus(t, load(t, carol, "opening /projects/delete", chromedp.Navigate(base+"/projects/delete")), 403)

	// Alice renames Acme.
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS("#org-rename"), "Acme Corp")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, `form:has(#org-rename) button[type="submit"]`), 200)
	if u := wantPath(t, alice, acme); u.Query().Get("done") != "updated" {
		t.Fatalf("renaming came back to %s", u)
	}
	mustShow(t, alice, "h1", "Acme Corp")
	wantText(t, alice, `[role="status"]`, "Organization renamed.")

	// Alice creates an organization and deletes it, confirming.
	wantStatus(t, load(t, alice, "opening the switcher", chromedp.Navigate(base+"/auth/organizations")), 200)
	typeInto(t, alice, "#org-name", "Scratch")
	wantStatus(t, click(t, alice, `form[action$="/auth/organizations"] button[type="submit"]`), 200)
	mustShow(t, alice, "h1", "Scratch")
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS("#delete-confirm"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	checkAccessible(t, alice, "organization page, deleting it")
	shootPart(t, alice, "organization-settings", part{`h2:has(+ form[action$="/update"])`, ""})
	wantStatus(t, click(t, alice, `form:has(#delete-confirm) button[type="submit"]`), 200)
	if u := wantPath(t, alice, "/auth/organizations"); u.Query().Get("done") != "deleted" {
		t.Fatalf("deleting came back to %s", u)
	}
	wantText(t, alice, `[role="status"]`, "Organization deleted.")
	if rows := texts(t, alice, ".row"); containsText(rows, "Scratch") || !containsText(rows, "Acme Corp") {
		t.Errorf("after deleting Scratch, the switcher lists %q", rows)
	}
}

// membersPart is the top of an organization's settings page: its
// members, its pending invitations and the invitation form. (The roles
// and the settings below have screenshots of their own.)
var membersPart = part{"", `form[action$="/invitations"]`}

// containsText reports whether one of texts contains s.
func containsText(texts []string, s string) bool {
	for _, x := range texts {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}
