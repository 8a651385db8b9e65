package adaptertest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// runOrganizations runs the organization.Store suite on adapters that
// implement it (through wrappers too: adapter.Supports).
func runOrganizations(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, []storeTest[organization.Store]{
		{"Organization/CreateGetUpdateDelete", testOrgCRUD},
		{"Organization/ListMine", testOrgList},
		{"Organization/UnknownUser", testOrgUnknownUser},
		{"Organization/Members", testOrgMembers},
		{"Organization/LastOwner", testOrgLastOwner},
		{"Organization/Invitations", testOrgInvitations},
		{"Organization/AcceptRefusals", testOrgAcceptRefusals},
		{"Organization/Roles", testOrgRoles},
		{"Organization/DeleteCascades", testOrgDeleteCascades},
		{"Organization/ActiveOrganization", testOrgActive},
		{"Concurrency/LastOwnerDemotions", testRaceLastOwner},
		{"Concurrency/AcceptInvitationOnce", testRaceAccept},
	})
}

// orgFixture is an organization with an owner, made for a test.
type orgFixture struct {
	org   organization.Organization
	owner string
}

// makeOrg stores an organization with slug, owned by a new user.
func makeOrg(t *testing.T, a adapter.Adapter, s organization.Store, slug string) orgFixture {
	t.Helper()
	u := mustCreateUser(t, a, newUser(slug+"-owner@example.com"))
	o := organization.Organization{ID: "org-" + slug, Name: "Org " + slug, Slug: slug, CreatedAt: now}
	if err := s.CreateOrganization(ctx(t), o, organization.Membership{OrganizationID: o.ID, UserID: u.ID, Role: organization.Owner, CreatedAt: now}); err != nil {
		t.Fatalf("CreateOrganization %s: %v", slug, err)
	}
	return orgFixture{org: o, owner: u.ID}
}

// join makes user a member of org with role, through an invitation.
func join(t *testing.T, a adapter.Adapter, s organization.Store, org, email, role string) string {
	t.Helper()
	u := mustCreateUser(t, a, newUser(email))
	hash := organization.HashToken("join-" + org + email)
	inv := organization.Invitation{ID: "inv-" + org + email, OrganizationID: org, Email: email, Role: role, TokenHash: hash,
		Expires: time.Now().Add(time.Hour), CreatedAt: now}
	if err := s.CreateInvitation(ctx(t), inv); err != nil {
		t.Fatalf("CreateInvitation: %v", err)
	}
	if _, err := s.AcceptInvitation(ctx(t), hash, email, u.ID, time.Now()); err != nil {
		t.Fatalf("AcceptInvitation: %v", err)
	}
	return u.ID
}

func testOrgCRUD(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	got, err := s.Organization(ctx(t), f.org.ID)
	if err != nil || got.Name != "Org acme" || got.Slug != "acme" || !sameTime(got.CreatedAt, now) {
		t.Fatalf("Organization = %+v, %v", got, err)
	}
	u := mustCreateUser(t, a, newUser("second@example.com"))
	dup := organization.Organization{ID: "other", Name: "Dup", Slug: "acme", CreatedAt: now}
	wantErr(t, "a second organization with the slug", s.CreateOrganization(ctx(t), dup, organization.Membership{UserID: u.ID, Role: organization.Owner}), adapter.ErrConflict)
	if _, err := s.Organizations(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	} else if l, _ := s.Organizations(ctx(t), u.ID); len(l) != 0 {
		t.Errorf("a refused organization left a membership: %v", l)
	}
	g := makeOrg(t, a, s, "globex")
	g.org.Slug = "acme"
	wantErr(t, "renaming to a taken slug", s.UpdateOrganization(ctx(t), g.org), adapter.ErrConflict)
	g.org.Name, g.org.Slug = "Globex Corp", "globex-corp"
	if err := s.UpdateOrganization(ctx(t), g.org); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Organization(ctx(t), g.org.ID); got.Name != "Globex Corp" || got.Slug != "globex-corp" {
		t.Errorf("after update: %+v", got)
	}
	wantErr(t, "update of an unknown organization", s.UpdateOrganization(ctx(t), organization.Organization{ID: "nope", Name: "x", Slug: "nope"}), adapter.ErrNotFound)
	if err := s.DeleteOrganization(ctx(t), f.org.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Organization(ctx(t), f.org.ID)
	wantErr(t, "deleted organization", err, adapter.ErrNotFound)
	wantErr(t, "deleting it again", s.DeleteOrganization(ctx(t), f.org.ID), adapter.ErrNotFound)
}

func testOrgList(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "one")
	g := makeOrg(t, a, s, "two")
	id := join(t, a, s, g.org.ID, "both@example.com", organization.Member)
	hash := organization.HashToken("x")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i1", OrganizationID: f.org.ID, Email: "both@example.com", Role: "member", TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now})
	if _, err := s.AcceptInvitation(ctx(t), hash, "both@example.com", id, time.Now()); err != nil {
		t.Fatal(err)
	}
	l, err := s.Organizations(ctx(t), id)
	if err != nil || len(l) != 2 {
		t.Fatalf("Organizations = %v, %v", l, err)
	}
	l, _ = s.Organizations(ctx(t), f.owner)
	if len(l) != 1 || l[0].ID != f.org.ID {
		t.Errorf("the owner of one sees %v", l)
	}
}

func testOrgUnknownUser(t *testing.T, a adapter.Adapter, s organization.Store) {
	o := organization.Organization{ID: "o", Name: "O", Slug: "o", CreatedAt: now}
	wantErr(t, "an organization of an unknown user", s.CreateOrganization(ctx(t), o, organization.Membership{OrganizationID: "o", UserID: "ghost", Role: organization.Owner, CreatedAt: now}), adapter.ErrNotFound)
	if _, err := s.Organization(ctx(t), "o"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the refused organization was stored: %v", err)
	}
}

func testOrgMembers(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	m, err := s.Membership(ctx(t), f.org.ID, bob)
	if err != nil || m.Role != organization.Member || m.UserID != bob || m.OrganizationID != f.org.ID {
		t.Fatalf("Membership = %+v, %v", m, err)
	}
	_, err = s.Membership(ctx(t), g.org.ID, bob)
	wantErr(t, "membership of the other organization", err, adapter.ErrNotFound)
	list, err := s.Members(ctx(t), f.org.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("Members = %v, %v", list, err)
	}
	if err := s.SetRole(ctx(t), f.org.ID, bob, organization.Admin); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Membership(ctx(t), f.org.ID, bob); m.Role != organization.Admin {
		t.Errorf("role after SetRole: %q", m.Role)
	}
	wantErr(t, "SetRole through the other organization", s.SetRole(ctx(t), g.org.ID, bob, organization.Owner), adapter.ErrNotFound)
	wantErr(t, "RemoveMembership through the other organization", s.RemoveMembership(ctx(t), g.org.ID, bob), adapter.ErrNotFound)
	if err := s.RemoveMembership(ctx(t), f.org.ID, bob); err != nil {
		t.Fatal(err)
	}
	_, err = s.Membership(ctx(t), f.org.ID, bob)
	wantErr(t, "removed member", err, adapter.ErrNotFound)
	if err := a.DeleteUser(ctx(t), g.owner); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.Members(ctx(t), g.org.ID); len(list) != 0 {
		t.Errorf("a deleted user's membership stays: %v", list)
	}
}

func testOrgLastOwner(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	wantErr(t, "demoting the only owner", s.SetRole(ctx(t), f.org.ID, f.owner, organization.Admin), organization.ErrLastOwner)
	wantErr(t, "removing the only owner", s.RemoveMembership(ctx(t), f.org.ID, f.owner), organization.ErrLastOwner)
	if err := s.SetRole(ctx(t), f.org.ID, f.owner, organization.Owner); err != nil {
		t.Errorf("the only owner kept as owner: %v", err)
	}
	second := join(t, a, s, f.org.ID, "second@example.com", organization.Owner)
	if err := s.SetRole(ctx(t), f.org.ID, f.owner, organization.Member); err != nil {
		t.Fatalf("demoting one of two owners: %v", err)
	}
	wantErr(t, "demoting the remaining owner", s.SetRole(ctx(t), f.org.ID, second, organization.Member), organization.ErrLastOwner)
	wantErr(t, "removing the remaining owner", s.RemoveMembership(ctx(t), f.org.ID, second), organization.ErrLastOwner)
	if m, _ := s.Membership(ctx(t), f.org.ID, second); m.Role != organization.Owner {
		t.Errorf("the refused demotion changed the role to %q", m.Role)
	}
}

func testOrgInvitations(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	exp := now.Add(48 * time.Hour)
	inv := organization.Invitation{ID: "inv1", OrganizationID: f.org.ID, Email: "eve@example.com", Role: organization.Admin,
		InviterID: f.owner, TokenHash: organization.HashToken("t1"), Expires: exp, CreatedAt: now}
	if err := s.CreateInvitation(ctx(t), inv); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "an invitation with the same token", s.CreateInvitation(ctx(t), organization.Invitation{ID: "inv2", OrganizationID: f.org.ID,
		Email: "x@example.com", Role: "member", TokenHash: inv.TokenHash, Expires: exp, CreatedAt: now}), adapter.ErrConflict)
	list, err := s.Invitations(ctx(t), f.org.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("Invitations = %v, %v", list, err)
	}
	got := list[0]
	if got.ID != "inv1" || got.Email != inv.Email || got.Role != organization.Admin || got.InviterID != f.owner ||
		got.TokenHash != inv.TokenHash || !sameTime(got.Expires, exp) || !sameTime(got.CreatedAt, now) {
		t.Errorf("stored invitation %+v, want %+v", got, inv)
	}
	if l, _ := s.Invitations(ctx(t), g.org.ID); len(l) != 0 {
		t.Errorf("the other organization lists %v", l)
	}
	if got, err := s.InvitationByToken(ctx(t), inv.TokenHash); err != nil || got.ID != "inv1" {
		t.Errorf("InvitationByToken = %+v, %v", got, err)
	}
	wantErr(t, "RenewInvitation through the other organization", s.RenewInvitation(ctx(t), g.org.ID, "inv1", "h", exp), adapter.ErrNotFound)
	wantErr(t, "DeleteInvitation through the other organization", s.DeleteInvitation(ctx(t), g.org.ID, "inv1"), adapter.ErrNotFound)
	newHash := organization.HashToken("t2")
	if err := s.RenewInvitation(ctx(t), f.org.ID, "inv1", newHash, exp.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, err = s.InvitationByToken(ctx(t), inv.TokenHash)
	wantErr(t, "the old token after renewal", err, adapter.ErrNotFound)
	if got, _ := s.InvitationByToken(ctx(t), newHash); !sameTime(got.Expires, exp.Add(time.Hour)) {
		t.Errorf("renewed expiry %v", got.Expires)
	}
	if _, err := s.DeclineInvitation(ctx(t), newHash, "mallory@example.com"); !errors.Is(err, organization.ErrWrongRecipient) {
		t.Errorf("decline by another address: %v", err)
	}
	if d, err := s.DeclineInvitation(ctx(t), newHash, "eve@example.com"); err != nil || d.ID != "inv1" {
		t.Errorf("decline: %+v, %v", d, err)
	}
	_, err = s.InvitationByToken(ctx(t), newHash)
	wantErr(t, "a declined invitation", err, adapter.ErrNotFound)
	if err := s.CreateInvitation(ctx(t), organization.Invitation{ID: "inv3", OrganizationID: f.org.ID, Email: "z@example.com", Role: "member",
		TokenHash: organization.HashToken("t3"), Expires: exp, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteInvitation(ctx(t), f.org.ID, "inv3"); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "deleting it again", s.DeleteInvitation(ctx(t), f.org.ID, "inv3"), adapter.ErrNotFound)
}

func testOrgAcceptRefusals(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	eve := mustCreateUser(t, a, newUser("eve@example.com"))
	mallory := mustCreateUser(t, a, newUser("mallory@example.com"))
	hash := organization.HashToken("t")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i", OrganizationID: f.org.ID, Email: "eve@example.com", Role: "member",
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now})
	_, err := s.AcceptInvitation(ctx(t), hash, "mallory@example.com", mallory.ID, time.Now())
	wantErr(t, "accept by another address", err, organization.ErrWrongRecipient)
	_, err = s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, time.Now().Add(2*time.Hour))
	wantErr(t, "accept after expiry", err, organization.ErrExpired)
	if _, err := s.Membership(ctx(t), f.org.ID, mallory.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("a refused accept made a member: %v", err)
	}
	m, err := s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, time.Now())
	if err != nil || m.Role != "member" || m.UserID != eve.ID {
		t.Fatalf("accept after refusals: %+v, %v", m, err)
	}
	_, err = s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, time.Now())
	wantErr(t, "accept twice", err, adapter.ErrNotFound)
	hash2 := organization.HashToken("t2")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i2", OrganizationID: f.org.ID, Email: "eve@example.com", Role: "admin",
		TokenHash: hash2, Expires: time.Now().Add(time.Hour), CreatedAt: now})
	_, err = s.AcceptInvitation(ctx(t), hash2, "eve@example.com", eve.ID, time.Now())
	wantErr(t, "accept by a member", err, adapter.ErrConflict)
	if m, _ := s.Membership(ctx(t), f.org.ID, eve.ID); m.Role != "member" {
		t.Errorf("a second invitation changed the role to %q", m.Role)
	}
}

func testOrgRoles(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	r := organization.Role{Name: "billing", Permissions: permission.MustSet("project:read", "invoice:pay")}
	if err := s.CreateRole(ctx(t), f.org.ID, r); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "a second role with the name", s.CreateRole(ctx(t), f.org.ID, r), adapter.ErrConflict)
	if err := s.CreateRole(ctx(t), g.org.ID, r); err != nil {
		t.Errorf("the same name in another organization: %v", err)
	}
	list, err := s.Roles(ctx(t), f.org.ID)
	if err != nil || len(list) != 1 || list[0].Name != "billing" || !slices.Equal(list[0].Permissions, r.Permissions) || list[0].BuiltIn {
		t.Fatalf("Roles = %+v, %v", list, err)
	}
	r.Permissions = permission.MustSet("invoice:pay")
	if err := s.UpdateRole(ctx(t), f.org.ID, r); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.Roles(ctx(t), f.org.ID); !slices.Equal(list[0].Permissions, r.Permissions) {
		t.Errorf("after update: %v", list[0].Permissions)
	}
	if list, _ := s.Roles(ctx(t), g.org.ID); len(list[0].Permissions) != 2 {
		t.Errorf("updating one organization's role changed the other's: %v", list[0].Permissions)
	}
	wantErr(t, "UpdateRole of an unknown role", s.UpdateRole(ctx(t), f.org.ID, organization.Role{Name: "nope"}), adapter.ErrNotFound)
	join(t, a, s, f.org.ID, "payer@example.com", "billing")
	wantErr(t, "deleting a role in use", s.DeleteRole(ctx(t), f.org.ID, "billing"), organization.ErrRoleInUse)
	if err := s.DeleteRole(ctx(t), g.org.ID, "billing"); err != nil {
		t.Errorf("deleting the unused role of the other organization: %v", err)
	}
	wantErr(t, "deleting it again", s.DeleteRole(ctx(t), g.org.ID, "billing"), adapter.ErrNotFound)
}

func testOrgDeleteCascades(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	_ = s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "r", Permissions: permission.MustSet("a:b")})
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i", OrganizationID: f.org.ID, Email: "z@example.com", Role: "member",
		TokenHash: "h", Expires: time.Now().Add(time.Hour), CreatedAt: now})
	if err := s.SetActiveOrganization(ctx(t), "sess", bob, f.org.ID, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteOrganization(ctx(t), f.org.ID); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Organizations(ctx(t), bob); len(l) != 0 {
		t.Errorf("memberships stay: %v", l)
	}
	if l, _ := s.Invitations(ctx(t), f.org.ID); len(l) != 0 {
		t.Errorf("invitations stay: %v", l)
	}
	if l, _ := s.Roles(ctx(t), f.org.ID); len(l) != 0 {
		t.Errorf("roles stay: %v", l)
	}
	if id, _ := s.ActiveOrganization(ctx(t), "sess"); id != "" {
		t.Errorf("the active organization stays: %q", id)
	}
}

func testOrgActive(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	exp := time.Now().Add(time.Hour)
	if id, err := s.ActiveOrganization(ctx(t), "s1"); err != nil || id != "" {
		t.Errorf("none set: %q, %v", id, err)
	}
	wantErr(t, "an organization bob is not a member of", s.SetActiveOrganization(ctx(t), "s1", bob, g.org.ID, exp), adapter.ErrNotFound)
	if err := s.SetActiveOrganization(ctx(t), "s1", bob, f.org.ID, exp); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.ActiveOrganization(ctx(t), "s1"); id != f.org.ID {
		t.Errorf("active = %q", id)
	}
	if id, _ := s.ActiveOrganization(ctx(t), "s2"); id != "" {
		t.Errorf("another session's active = %q", id)
	}
	if err := s.SetActiveOrganization(ctx(t), "s1", bob, "", exp); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.ActiveOrganization(ctx(t), "s1"); id != "" {
		t.Errorf("cleared, active = %q", id)
	}
	_ = s.SetActiveOrganization(ctx(t), "s1", bob, f.org.ID, exp)
	if err := s.RemoveMembership(ctx(t), f.org.ID, bob); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.ActiveOrganization(ctx(t), "s1"); id != "" {
		t.Errorf("after removal from it, active = %q", id)
	}
	_ = s.SetActiveOrganization(ctx(t), "s3", f.owner, f.org.ID, time.Now().Add(-time.Second))
	if id, _ := s.ActiveOrganization(ctx(t), "s3"); id != "" {
		t.Errorf("an expired session's active = %q", id)
	}
}

// testRaceLastOwner: Racers requests demote each of two owners at once;
// the organization keeps an owner. Three rounds, each on an organization
// of its own: one round of a store without the lock may happen to
// serialise (PostgreSQL did one time in three).
func testRaceLastOwner(t *testing.T, a adapter.Adapter, s organization.Store) {
	for round := range 3 {
		f := makeOrg(t, a, s, fmt.Sprintf("acme%d", round))
		second := join(t, a, s, f.org.ID, fmt.Sprintf("second%d@example.com", round), organization.Owner)
		warmMembers(t, s, f.org.ID)
		var ok atomic.Int32
		errs := raceN(Racers, func(i int) error {
			who := f.owner
			if i%2 == 1 {
				who = second
			}
			err := s.SetRole(ctx(t), f.org.ID, who, organization.Member)
			if err == nil {
				ok.Add(1)
			}
			return err
		})
		for _, err := range errs {
			if err != nil && !errors.Is(err, organization.ErrLastOwner) {
				t.Errorf("SetRole: %v", err)
			}
		}
		owners := 0
		list, _ := s.Members(ctx(t), f.org.ID)
		for _, m := range list {
			if m.Role == organization.Owner {
				owners++
			}
		}
		if owners != 1 {
			t.Errorf("round %d: %d owners left after concurrent demotions (%d succeeded), want 1", round, owners, ok.Load())
		}
	}
}

// testRaceAccept: Racers accepts of one invitation at once; one joins.
func testRaceAccept(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	eve := mustCreateUser(t, a, newUser("eve@example.com"))
	hash := organization.HashToken("t")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i", OrganizationID: f.org.ID, Email: "eve@example.com", Role: "member",
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now})
	warmMembers(t, s, f.org.ID)
	var ok atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range Racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, time.Now())
			switch {
			case err == nil:
				ok.Add(1)
			case !errors.Is(err, adapter.ErrNotFound) && !errors.Is(err, adapter.ErrConflict):
				t.Errorf("AcceptInvitation: %v", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if n := ok.Load(); n != 1 {
		t.Errorf("%d of %d concurrent accepts succeeded, want 1", n, Racers)
	}
}

// warmMembers reads the organization's members in Racers goroutines at
// once before a race, as warm does for the team races: a store with a
// pool of connections opens them now, so that the racers run at once
// instead of waiting for one new connection after another.
func warmMembers(t *testing.T, s organization.Store, orgID string) {
	for _, err := range raceN(Racers, func(int) error { _, err := s.Members(ctx(t), orgID); return err }) {
		if err != nil {
			t.Fatal(err)
		}
	}
}
