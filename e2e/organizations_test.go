package e2e

import (
	"context"
	"strconv"
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

// TestOrganizationTeams walks through the Teams section of the
// organization settings page in two browsers. Alice signs in, and Bob,
// who is made a developer of the example's Acme. Alice, its owner, sees its team
// Engineering with herself in it; she creates the team Design, adds Bob,
// renames it Platform, takes Bob out of it (he stays in Acme) and
// deletes it, the page showing each change. Bob, whose role holds no
// team statement, sees the teams and their members but no form.
func TestOrganizationTeams(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	alice := signedInBrowser(t, base, " as Alice")
	bob := newBrowser(t) // after Alice, who made Acme
	load(t, bob, "opening /private as Bob", chromedp.Navigate(base+"/private"))
	wantStatus(t, click(t, bob, `form[action$="/signin/development"] button`), 200)
	chooseDevUser(t, bob, "bob")
	wantPath(t, bob, "/private")
	const acme = "/auth/organizations/acme"
	teamRow := func(name string) string { return `.row:has(button[aria-label="Delete the team ` + name + `"])` }
	wantDone := func(done, notice string) {
		t.Helper()
		if u := wantPath(t, alice, acme); u.Query().Get("done") != done {
			t.Fatalf("the team form came back to %s, want done=%s", u, done)
		}
		wantText(t, alice, `[role="status"]`, notice)
	}
	wantTeam := func(name string, wants ...string) {
		t.Helper()
		if n := count(t, alice, teamRow(name)); n != 1 {
			t.Fatalf("%d rows for the team %s; page: %s", n, name, bodyText(t, alice))
		}
		row := strings.Join(strings.Fields(mustText(t, alice, teamRow(name))), " ")
		for _, want := range wants {
			if !strings.Contains(row, want) {
				t.Errorf("the row of %s says %q, want %q in it", name, row, want)
			}
		}
	}

	wantStatus(t, load(t, alice, "opening Acme's page", chromedp.Navigate(base+acme)), 200)
	mustShow(t, alice, "h1", "Acme")
	if h := texts(t, alice, "h2"); !containsText(h, "Teams") || !containsText(h, "Create a team") {
		t.Fatalf("Acme's page has no Teams section with a create form's heading: headings %q", h)
	}
	wantTeam("Engineering", "Members: 1", "Alice Example")

	// Alice creates Design.
	typeInto(t, alice, "#team-name", "Design")
	wantStatus(t, click(t, alice, `form:has(#team-name) button[type="submit"]`), 200)
	wantDone("teamCreated", "Team created.")
	wantTeam("Design", "No members")
	wantTeam("Engineering", "Members: 1", "Alice Example")

	// She adds Bob to it.
	add := `form:has(button[aria-label="Add the chosen member to Design"])`
	chooseOption(t, alice, add+" select", "Bob Example")
	wantStatus(t, click(t, alice, add+` button[type="submit"]`), 200)
	wantDone("teamMemberAdded", "Member added to the team.")
	wantTeam("Design", "Members: 1", "Bob Example")
	if n := count(t, alice, `button[aria-label="Remove Bob Example from Design"]`); n != 1 {
		t.Errorf("%d buttons remove Bob from Design, want 1", n)
	}
	// The section with Design's Rename form open.
	rename := teamRow("Design") + " details"
	if err := chromedp.Do(alice, chromedp.Click(chromedp.CSS(rename+" summary"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	checkAccessible(t, alice, "organization page, teams")
	shootPart(t, alice, "organization-teams", teamsPart)

	// She renames it Platform.
	if err := chromedp.Do(alice, chromedp.SetValue(chromedp.CSS(rename+` input[name="name"]`), "Platform")); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, alice, rename+` button[type="submit"]`), 200)
	wantDone("teamUpdated", "Team renamed.")
	if n := count(t, alice, teamRow("Design")); n != 0 {
		t.Errorf("after renaming, %d rows for Design", n)
	}
	wantTeam("Platform", "Members: 1", "Bob Example")

	// She takes Bob out of it; he stays in Acme, with his role form.
	wantStatus(t, click(t, alice, `button[aria-label="Remove Bob Example from Platform"]`), 200)
	wantDone("teamMemberRemoved", "Member removed from the team.")
	wantTeam("Platform", "No members")
	if n := count(t, alice, `form[action$="/role"]`); n != 1 {
		t.Errorf("after taking Bob out of the team, %d role forms, want Bob's", n)
	}

	// She deletes it.
	wantStatus(t, click(t, alice, `button[aria-label="Delete the team Platform"]`), 200)
	wantDone("teamDeleted", "Team deleted.")
	if n := count(t, alice, teamRow("Platform")); n != 0 {
		t.Errorf("after deleting, %d rows for Platform", n)
	}
	wantTeam("Engineering", "Members: 1", "Alice Example")

	// Bob, a developer, sees the teams and no form to change them.
	wantStatus(t, load(t, bob, "opening Acme's page as Bob", chromedp.Navigate(base+acme)), 200)
	wantText(t, bob, "h1 + p", "Your role: developer")
	if h := texts(t, bob, "h2"); !containsText(h, "Teams") || containsText(h, "Create a team") {
		t.Fatalf("Bob's page of Acme: headings %q, want Teams without Create a team", h)
	}
	wantBody(t, bob, "Engineering", "Members: 1", "Alice Example")
	if n := count(t, bob, `#team-name, form[action*="/teams"]`); n != 0 {
		t.Errorf("Bob's page has %d team forms or fields, want none", n)
	}
}

// teamsPart is the Teams section of an organization's settings page
// that has a team: its teams and the create form.
var teamsPart = part{`h2:has(+ .row form[action*="/teams/"])`, `form:has(#team-name)`}

// chooseOption selects the option of the select sel whose text is text.
func chooseOption(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`((sel, text) => {
		const s = document.querySelector(sel);
		const o = s && [...s.options].find(o => o.text === text);
		if (!o) return false;
		s.value = o.value;
		return true;
	})(`+strconv.Quote(sel)+`, `+strconv.Quote(text)+`)`))
	if err != nil || !ok {
		t.Fatalf("choosing %q in %s: %v (found: %v)", text, sel, err, ok)
	}
}
