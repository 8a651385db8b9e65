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
		{"Organization/Limits", testOrgLimits},
		{"Organization/AcceptLimits", testOrgAcceptLimits},
		{"Organization/RenewExpiredLimit", testOrgRenewLimit},
		{"Organization/DeleteRoleInvited", testOrgDeleteRoleInvited},
		{"Organization/JudgedRoles", testOrgJudged},
		{"Organization/InvitationChecks", testOrgInvitationChecks},
		{"Concurrency/LastOwnerDemotions", testRaceLastOwner},
		{"Concurrency/AcceptInvitationOnce", testRaceAccept},
		{"Concurrency/OrganizationsPerUserLimit", testRaceOrgLimit},
		{"Concurrency/InvitationLimit", testRaceInvitationLimit},
		{"Concurrency/RenewLimit", testRaceRenewLimit},
		{"Concurrency/AcceptMemberLimit", testRaceAcceptMemberLimit},
		{"Concurrency/RoleLimit", testRaceRoleLimit},
		{"Concurrency/DeleteRoleWhileRenewing", testRaceDeleteRoleRenew},
		{"Concurrency/InvitationsToOneAddress", testRaceInviteOneAddress},
		{"Concurrency/DeleteRoleWhileInviting", testRaceDeleteRoleInvite},
	})
}

// noLimit is a limit the tests that are not about limits stay under.
const noLimit = 1000

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
	if err := s.CreateOrganization(ctx(t), o, organization.Membership{OrganizationID: o.ID, UserID: u.ID, Role: organization.Owner, CreatedAt: now}, noLimit); err != nil {
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
	if err := s.CreateInvitation(ctx(t), inv, custom(role), noLimit); err != nil {
		t.Fatalf("CreateInvitation: %v", err)
	}
	if _, err := s.AcceptInvitation(ctx(t), hash, email, u.ID, noLimit, noLimit, time.Now()); err != nil {
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
	wantErr(t, "a second organization with the slug", s.CreateOrganization(ctx(t), dup, organization.Membership{UserID: u.ID, Role: organization.Owner}, noLimit), adapter.ErrConflict)
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
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i1", OrganizationID: f.org.ID, Email: "both@example.com", Role: "member", TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
	if _, err := s.AcceptInvitation(ctx(t), hash, "both@example.com", id, noLimit, noLimit, time.Now()); err != nil {
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
	wantErr(t, "an organization of an unknown user", s.CreateOrganization(ctx(t), o, organization.Membership{OrganizationID: "o", UserID: "ghost", Role: organization.Owner, CreatedAt: now}, noLimit), adapter.ErrNotFound)
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
	if err := s.SetRole(ctx(t), f.org.ID, bob, organization.Admin, map[string]string{bob: organization.Member}); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Membership(ctx(t), f.org.ID, bob); m.Role != organization.Admin {
		t.Errorf("role after SetRole: %q", m.Role)
	}
	wantErr(t, "SetRole through the other organization", s.SetRole(ctx(t), g.org.ID, bob, organization.Owner, map[string]string{bob: organization.Admin}), adapter.ErrNotFound)
	wantErr(t, "RemoveMembership through the other organization", s.RemoveMembership(ctx(t), g.org.ID, bob, map[string]string{bob: organization.Admin}), adapter.ErrNotFound)
	if err := s.RemoveMembership(ctx(t), f.org.ID, bob, map[string]string{bob: organization.Admin}); err != nil {
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
	wantErr(t, "demoting the only owner", s.SetRole(ctx(t), f.org.ID, f.owner, organization.Admin, map[string]string{f.owner: organization.Owner}), organization.ErrLastOwner)
	wantErr(t, "removing the only owner", s.RemoveMembership(ctx(t), f.org.ID, f.owner, map[string]string{f.owner: organization.Owner}), organization.ErrLastOwner)
	if err := s.SetRole(ctx(t), f.org.ID, f.owner, organization.Owner, map[string]string{f.owner: organization.Owner}); err != nil {
		t.Errorf("the only owner kept as owner: %v", err)
	}
	second := join(t, a, s, f.org.ID, "second@example.com", organization.Owner)
	if err := s.SetRole(ctx(t), f.org.ID, f.owner, organization.Member, map[string]string{f.owner: organization.Owner}); err != nil {
		t.Fatalf("demoting one of two owners: %v", err)
	}
	wantErr(t, "demoting the remaining owner", s.SetRole(ctx(t), f.org.ID, second, organization.Member, map[string]string{second: organization.Owner}), organization.ErrLastOwner)
	wantErr(t, "removing the remaining owner", s.RemoveMembership(ctx(t), f.org.ID, second, map[string]string{second: organization.Owner}), organization.ErrLastOwner)
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
	if err := s.CreateInvitation(ctx(t), inv, false, noLimit); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "an invitation with the same token", s.CreateInvitation(ctx(t), organization.Invitation{ID: "inv2", OrganizationID: f.org.ID,
		Email: "x@example.com", Role: "member", TokenHash: inv.TokenHash, Expires: exp, CreatedAt: now}, false, noLimit), adapter.ErrConflict)
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
	wantErr(t, "RenewInvitation through the other organization", s.RenewInvitation(ctx(t), g.org.ID, "inv1", "h", exp, false, noLimit, now), adapter.ErrNotFound)
	wantErr(t, "DeleteInvitation through the other organization", s.DeleteInvitation(ctx(t), g.org.ID, "inv1"), adapter.ErrNotFound)
	newHash := organization.HashToken("t2")
	if err := s.RenewInvitation(ctx(t), f.org.ID, "inv1", newHash, exp.Add(time.Hour), false, noLimit, now); err != nil {
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
		TokenHash: organization.HashToken("t3"), Expires: exp, CreatedAt: now}, false, noLimit); err != nil {
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
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
	_, err := s.AcceptInvitation(ctx(t), hash, "mallory@example.com", mallory.ID, noLimit, noLimit, time.Now())
	wantErr(t, "accept by another address", err, organization.ErrWrongRecipient)
	_, err = s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, noLimit, time.Now().Add(2*time.Hour))
	wantErr(t, "accept after expiry", err, organization.ErrExpired)
	if _, err := s.Membership(ctx(t), f.org.ID, mallory.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("a refused accept made a member: %v", err)
	}
	m, err := s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, noLimit, time.Now())
	if err != nil || m.Role != "member" || m.UserID != eve.ID {
		t.Fatalf("accept after refusals: %+v, %v", m, err)
	}
	_, err = s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, noLimit, time.Now())
	wantErr(t, "accept twice", err, adapter.ErrNotFound)
	hash2 := organization.HashToken("t2")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i2", OrganizationID: f.org.ID, Email: "eve@example.com", Role: "admin",
		TokenHash: hash2, Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
	_, err = s.AcceptInvitation(ctx(t), hash2, "eve@example.com", eve.ID, noLimit, noLimit, time.Now())
	wantErr(t, "accept by a member", err, adapter.ErrConflict)
	if m, _ := s.Membership(ctx(t), f.org.ID, eve.ID); m.Role != "member" {
		t.Errorf("a second invitation changed the role to %q", m.Role)
	}
}

func testOrgRoles(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	r := organization.Role{Name: "billing", Permissions: permission.MustSet("project:read", "invoice:pay")}
	if err := s.CreateRole(ctx(t), f.org.ID, r, noLimit); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "a second role with the name", s.CreateRole(ctx(t), f.org.ID, r, noLimit), adapter.ErrConflict)
	if err := s.CreateRole(ctx(t), g.org.ID, r, noLimit); err != nil {
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
	wantErr(t, "deleting a role in use", s.DeleteRole(ctx(t), f.org.ID, "billing", time.Now()), organization.ErrRoleInUse)
	if err := s.DeleteRole(ctx(t), g.org.ID, "billing", time.Now()); err != nil {
		t.Errorf("deleting the unused role of the other organization: %v", err)
	}
	wantErr(t, "deleting it again", s.DeleteRole(ctx(t), g.org.ID, "billing", time.Now()), adapter.ErrNotFound)
}

func testOrgDeleteCascades(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	_ = s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "r", Permissions: permission.MustSet("a:b")}, noLimit)
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "i", OrganizationID: f.org.ID, Email: "z@example.com", Role: "member",
		TokenHash: "h", Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
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
	if err := s.RemoveMembership(ctx(t), f.org.ID, bob, map[string]string{bob: organization.Member}); err != nil {
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
			err := s.SetRole(ctx(t), f.org.ID, who, organization.Member, map[string]string{who: organization.Owner})
			if err == nil {
				ok.Add(1)
			}
			return err
		})
		for _, err := range errs {
			// ErrConflict: the owner was demoted by another racer first.
			if err != nil && !errors.Is(err, organization.ErrLastOwner) && !errors.Is(err, adapter.ErrConflict) {
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
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
	warmMembers(t, s, f.org.ID)
	var ok atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range Racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, noLimit, time.Now())
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

// invite stores an invitation of orgID to email with role, made at
// created and expiring at expires, under the limit max.
func invite(t *testing.T, s organization.Store, orgID, email, role string, created, expires time.Time, max int) error {
	return s.CreateInvitation(ctx(t), organization.Invitation{ID: "inv-" + orgID + email, OrganizationID: orgID, Email: email, Role: role,
		TokenHash: organization.HashToken("t-" + orgID + email), Expires: expires, CreatedAt: created}, custom(role), max)
}

// succeeded returns how many of errs, a race's, are nil, and fails the
// test for any that is not ErrLimit (or, when given, one of also).
func succeeded(t *testing.T, what string, errs []error, also ...error) int {
	t.Helper()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		expected := errors.Is(err, organization.ErrLimit)
		for _, e := range also {
			expected = expected || errors.Is(err, e)
		}
		if !expected {
			t.Errorf("%s: %v", what, err)
		}
	}
	return ok
}

// testOrgLimits: CreateOrganization, CreateInvitation and CreateRole
// refuse what would exceed their limit, and store nothing then.
func testOrgLimits(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	second := organization.Organization{ID: "org-second", Name: "Second", Slug: "second", CreatedAt: now}
	first := organization.Membership{OrganizationID: second.ID, UserID: f.owner, Role: organization.Owner, CreatedAt: now}
	wantErr(t, "a second organization with a limit of 1", s.CreateOrganization(ctx(t), second, first, 1), organization.ErrLimit)
	if _, err := s.Organization(ctx(t), second.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the refused organization was stored: %v", err)
	}
	if err := s.CreateOrganization(ctx(t), second, first, 2); err != nil {
		t.Fatalf("a second organization with a limit of 2: %v", err)
	}

	// One member; an invitation expired when the next is made does not
	// count.
	if err := invite(t, s, f.org.ID, "old@example.com", "member", now.Add(-2*time.Hour), now.Add(-time.Hour), noLimit); err != nil {
		t.Fatal(err)
	}
	if err := invite(t, s, f.org.ID, "a@example.com", "member", now, now.Add(time.Hour), 2); err != nil {
		t.Fatalf("a first invitation with a limit of 2: %v", err)
	}
	wantErr(t, "a second invitation with a limit of 2", invite(t, s, f.org.ID, "b@example.com", "member", now, now.Add(time.Hour), 2), organization.ErrLimit)
	if list, _ := s.Invitations(ctx(t), f.org.ID); len(list) != 2 {
		t.Errorf("invitations after the refusal: %v", list)
	}
	// Once a@'s has expired, its place is free.
	later := now.Add(2 * time.Hour)
	if err := invite(t, s, f.org.ID, "b@example.com", "member", later, later.Add(time.Hour), 2); err != nil {
		t.Errorf("an invitation after the other expired: %v", err)
	}
	wantErr(t, "an invitation to an unknown organization", invite(t, s, "nope", "c@example.com", "member", now, now.Add(time.Hour), noLimit), adapter.ErrNotFound)

	if err := s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "r1", Permissions: permission.MustSet("a:b")}, 1); err != nil {
		t.Fatalf("a first role with a limit of 1: %v", err)
	}
	wantErr(t, "a second role with a limit of 1", s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "r2", Permissions: permission.MustSet("a:b")}, 1), organization.ErrLimit)
	if list, _ := s.Roles(ctx(t), f.org.ID); len(list) != 1 {
		t.Errorf("roles after the refusal: %v", list)
	}
	if err := s.CreateRole(ctx(t), second.ID, organization.Role{Name: "r2", Permissions: permission.MustSet("a:b")}, 1); err != nil {
		t.Errorf("the limit is per organization: %v", err)
	}
}

// testOrgAcceptLimits: joining counts as creating for the organizations
// a user may be in, and an organization with maxMembers members takes no
// more; the invitation is kept.
func testOrgAcceptLimits(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	owner := mustGetUser(t, a, f.owner)
	if err := invite(t, s, g.org.ID, owner.Email, "member", now, time.Now().Add(time.Hour), noLimit); err != nil {
		t.Fatal(err)
	}
	hash := organization.HashToken("t-" + g.org.ID + owner.Email)
	_, err := s.AcceptInvitation(ctx(t), hash, owner.Email, f.owner, 1, noLimit, time.Now())
	wantErr(t, "joining a second organization with a limit of 1", err, organization.ErrLimit)
	if l, _ := s.Organizations(ctx(t), f.owner); len(l) != 1 {
		t.Errorf("after the refusal the user is in %v", l)
	}
	if _, err := s.InvitationByToken(ctx(t), hash); err != nil {
		t.Errorf("the refused invitation is gone: %v", err)
	}
	if _, err := s.AcceptInvitation(ctx(t), hash, owner.Email, f.owner, 2, noLimit, time.Now()); err != nil {
		t.Errorf("joining a second organization with a limit of 2: %v", err)
	}

	eve := mustCreateUser(t, a, newUser("eve@example.com"))
	if err := invite(t, s, f.org.ID, "eve@example.com", "member", now, time.Now().Add(time.Hour), noLimit); err != nil {
		t.Fatal(err)
	}
	hash = organization.HashToken("t-" + f.org.ID + "eve@example.com")
	_, err = s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, 1, time.Now())
	wantErr(t, "joining an organization of 1 member with a limit of 1", err, organization.ErrLimit)
	if list, _ := s.Members(ctx(t), f.org.ID); len(list) != 1 {
		t.Errorf("after the refusal the organization has %v", list)
	}
	if _, err := s.AcceptInvitation(ctx(t), hash, "eve@example.com", eve.ID, noLimit, 2, time.Now()); err != nil {
		t.Errorf("joining with a limit of 2: %v", err)
	}
}

// testOrgRenewLimit: an expired invitation does not count towards the
// limit, so renewing it must fit again; renewing one that has not
// expired changes no count.
func testOrgRenewLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	const max = 2 // the owner and one invitation
	if err := invite(t, s, f.org.ID, "a@example.com", "member", now, now.Add(time.Hour), max); err != nil {
		t.Fatal(err)
	}
	later := now.Add(2 * time.Hour) // a@'s has expired
	if err := invite(t, s, f.org.ID, "b@example.com", "member", later, later.Add(time.Hour), max); err != nil {
		t.Fatal(err)
	}
	idA, idB := "inv-"+f.org.ID+"a@example.com", "inv-"+f.org.ID+"b@example.com"
	wantErr(t, "renewing an expired invitation beyond the limit", s.RenewInvitation(ctx(t), f.org.ID, idA, "h1", later.Add(time.Hour), false, max, later), organization.ErrLimit)
	if got, _ := s.InvitationByToken(ctx(t), "h1"); got.ID != "" {
		t.Errorf("the refused renewal was stored: %+v", got)
	}
	if err := s.RenewInvitation(ctx(t), f.org.ID, idB, "h2", later.Add(2*time.Hour), false, max, later); err != nil {
		t.Errorf("renewing an invitation that has not expired, at the limit: %v", err)
	}
	if err := s.DeleteInvitation(ctx(t), f.org.ID, idB); err != nil {
		t.Fatal(err)
	}
	if err := s.RenewInvitation(ctx(t), f.org.ID, idA, "h1", later.Add(time.Hour), false, max, later); err != nil {
		t.Errorf("renewing the expired invitation once there is room: %v", err)
	}
}

// testOrgDeleteRoleInvited: a role that a pending invitation names is in
// use; once the invitation has expired the role may go, and the expired
// invitation with it (renewed, it would name a role that does not
// exist).
func testOrgDeleteRoleInvited(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	if err := s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "billing", Permissions: permission.MustSet("invoice:pay")}, noLimit); err != nil {
		t.Fatal(err)
	}
	if err := invite(t, s, f.org.ID, "payer@example.com", "billing", now, now.Add(time.Hour), noLimit); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "deleting a role a pending invitation names", s.DeleteRole(ctx(t), f.org.ID, "billing", now), organization.ErrRoleInUse)
	if list, _ := s.Roles(ctx(t), f.org.ID); len(list) != 1 {
		t.Errorf("the refused deletion deleted the role: %v", list)
	}
	if list, _ := s.Invitations(ctx(t), f.org.ID); len(list) != 1 {
		t.Errorf("the refused deletion deleted the invitation: %v", list)
	}
	if err := s.DeleteRole(ctx(t), f.org.ID, "billing", now.Add(2*time.Hour)); err != nil {
		t.Fatalf("deleting the role once the invitation has expired: %v", err)
	}
	if list, _ := s.Invitations(ctx(t), f.org.ID); len(list) != 0 {
		t.Errorf("the expired invitation naming the deleted role stays: %v", list)
	}
}

// testRaceOrgLimit: Racers requests at once make one user a member of an
// organization, half by creating one, half by accepting an invitation;
// a user who may be in 3 is in 3.
func testRaceOrgLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	const max = 3
	eve := mustCreateUser(t, a, newUser("eve@example.com"))
	orgs := make([]string, Racers)
	for i := range orgs {
		if i%2 == 1 {
			orgs[i] = makeOrg(t, a, s, fmt.Sprint("org", i)).org.ID
			if err := invite(t, s, orgs[i], "eve@example.com", "member", now, time.Now().Add(time.Hour), noLimit); err != nil {
				t.Fatal(err)
			}
		}
	}
	warmMembers(t, s, orgs[1])
	errs := race(func(i int) error {
		if i%2 == 1 {
			_, err := s.AcceptInvitation(ctx(t), organization.HashToken("t-"+orgs[i]+"eve@example.com"), "eve@example.com", eve.ID, max, noLimit, time.Now())
			return err
		}
		o := organization.Organization{ID: fmt.Sprint("new", i), Name: fmt.Sprint("New ", i), Slug: fmt.Sprint("new", i), CreatedAt: now}
		return s.CreateOrganization(ctx(t), o, organization.Membership{OrganizationID: o.ID, UserID: eve.ID, Role: organization.Owner, CreatedAt: now}, max)
	})
	ok := succeeded(t, "CreateOrganization or AcceptInvitation", errs)
	list, err := s.Organizations(ctx(t), eve.ID)
	if err != nil || ok != max || len(list) != max {
		t.Errorf("%d of %d concurrent creations and joins succeeded and the user is in %d organizations (%v), want %d", ok, Racers, len(list), err, max)
	}
}

// testRaceInvitationLimit: Racers invitations at once to an organization
// of one member that may have 3 members and invitations; 2 are made.
func testRaceInvitationLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	const max = 3
	f := makeOrg(t, a, s, "acme")
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		return invite(t, s, f.org.ID, fmt.Sprintf("u%d@example.com", i), "member", now, now.Add(time.Hour), max)
	})
	ok := succeeded(t, "CreateInvitation", errs)
	list, err := s.Invitations(ctx(t), f.org.ID)
	if err != nil || ok != max-1 || len(list) != max-1 {
		t.Errorf("%d of %d concurrent invitations succeeded and %d are stored (%v), want %d", ok, Racers, len(list), err, max-1)
	}
}

// testRaceRenewLimit: Racers expired invitations renewed at once, in an
// organization of one member that may have 3 members and invitations;
// 2 are renewed.
func testRaceRenewLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	const max = 3
	f := makeOrg(t, a, s, "acme")
	for i := range Racers {
		if err := invite(t, s, f.org.ID, fmt.Sprintf("u%d@example.com", i), "member", now, now.Add(time.Hour), noLimit); err != nil {
			t.Fatal(err)
		}
	}
	later := now.Add(2 * time.Hour)
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		id := "inv-" + f.org.ID + fmt.Sprintf("u%d@example.com", i)
		return s.RenewInvitation(ctx(t), f.org.ID, id, fmt.Sprint("renewed", i), later.Add(time.Hour), false, max, later)
	})
	ok := succeeded(t, "RenewInvitation", errs)
	pending := 0
	list, err := s.Invitations(ctx(t), f.org.ID)
	for _, inv := range list {
		if later.Before(inv.Expires) {
			pending++
		}
	}
	if err != nil || ok != max-1 || pending != max-1 {
		t.Errorf("%d of %d concurrent renewals succeeded and %d invitations are pending (%v), want %d", ok, Racers, pending, err, max-1)
	}
}

// testRaceAcceptMemberLimit: Racers users accept their invitations at
// once to an organization of one member that may have 3; 3 are members.
func testRaceAcceptMemberLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	const max = 3
	f := makeOrg(t, a, s, "acme")
	users := make([]string, Racers)
	for i := range users {
		email := fmt.Sprintf("u%d@example.com", i)
		users[i] = mustCreateUser(t, a, newUser(email)).ID
		if err := invite(t, s, f.org.ID, email, "member", now, time.Now().Add(time.Hour), noLimit); err != nil {
			t.Fatal(err)
		}
	}
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		email := fmt.Sprintf("u%d@example.com", i)
		_, err := s.AcceptInvitation(ctx(t), organization.HashToken("t-"+f.org.ID+email), email, users[i], noLimit, max, time.Now())
		return err
	})
	ok := succeeded(t, "AcceptInvitation", errs)
	list, err := s.Members(ctx(t), f.org.ID)
	if err != nil || ok != max-1 || len(list) != max {
		t.Errorf("%d of %d concurrent accepts succeeded and the organization has %d members (%v), want %d", ok, Racers, len(list), err, max)
	}
}

// testRaceRoleLimit: Racers custom roles made at once in an organization
// that may have 3; 3 are made.
func testRaceRoleLimit(t *testing.T, a adapter.Adapter, s organization.Store) {
	const max = 3
	f := makeOrg(t, a, s, "acme")
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		return s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: fmt.Sprint("r", i), Permissions: permission.MustSet("a:b")}, max)
	})
	ok := succeeded(t, "CreateRole", errs)
	list, err := s.Roles(ctx(t), f.org.ID)
	if err != nil || ok != max || len(list) != max {
		t.Errorf("%d of %d concurrent creations succeeded and %d roles are stored (%v), want %d", ok, Racers, len(list), err, max)
	}
}

// testRaceDeleteRoleRenew: a role deleted while its expired invitations
// are renewed, at once; either the deletion is refused or the
// invitations go with the role: no pending invitation names a role that
// does not exist.
func testRaceDeleteRoleRenew(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	if err := s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "billing", Permissions: permission.MustSet("invoice:pay")}, noLimit); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < Racers; i++ {
		if err := invite(t, s, f.org.ID, fmt.Sprintf("u%d@example.com", i), "billing", now, now.Add(time.Hour), noLimit); err != nil {
			t.Fatal(err)
		}
	}
	later := now.Add(2 * time.Hour)
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		if i == 0 {
			return s.DeleteRole(ctx(t), f.org.ID, "billing", later)
		}
		id := "inv-" + f.org.ID + fmt.Sprintf("u%d@example.com", i)
		return s.RenewInvitation(ctx(t), f.org.ID, id, fmt.Sprint("renewed", i), later.Add(time.Hour), true, noLimit, later)
	})
	succeeded(t, "DeleteRole or RenewInvitation", errs, organization.ErrRoleInUse, adapter.ErrNotFound)
	roles, _ := s.Roles(ctx(t), f.org.ID)
	list, _ := s.Invitations(ctx(t), f.org.ID)
	for _, inv := range list {
		if later.Before(inv.Expires) && len(roles) == 0 {
			t.Errorf("the role was deleted (%v) and the invitation %s naming it is pending", errs[0], inv.ID)
		}
	}
}

// custom reports whether role is a custom role, not one of the built-in
// roles every organization has: the Store checks that a custom role an
// invitation names exists.
func custom(role string) bool {
	return role != organization.Owner && role != organization.Admin && role != organization.Member
}

// testOrgJudged: SetRole and RemoveMembership judged on a role the
// member, or the acting member, no longer holds are ErrConflict and
// change nothing; an administrator who judged a member a member does
// not demote or remove them once they are an owner.
func testOrgJudged(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	admin := join(t, a, s, f.org.ID, "admin@example.com", organization.Admin)
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	if err := s.SetRole(ctx(t), f.org.ID, bob, organization.Owner, map[string]string{f.owner: organization.Owner, bob: organization.Member}); err != nil {
		t.Fatal(err)
	}
	// Judged when bob was a member.
	stale := map[string]string{admin: organization.Admin, bob: organization.Member}
	wantErr(t, "a demotion judged on the role before a promotion", s.SetRole(ctx(t), f.org.ID, bob, organization.Member, stale), adapter.ErrConflict)
	wantErr(t, "a removal judged on the role before a promotion", s.RemoveMembership(ctx(t), f.org.ID, bob, stale), adapter.ErrConflict)
	if m, err := s.Membership(ctx(t), f.org.ID, bob); err != nil || m.Role != organization.Owner {
		t.Errorf("after the refusals bob is %+v, %v; want an owner", m, err)
	}
	// The acting member demoted meanwhile.
	carol := join(t, a, s, f.org.ID, "carol@example.com", organization.Member)
	if err := s.SetRole(ctx(t), f.org.ID, admin, organization.Member, map[string]string{f.owner: organization.Owner, admin: organization.Admin}); err != nil {
		t.Fatal(err)
	}
	stale = map[string]string{admin: organization.Admin, carol: organization.Member}
	wantErr(t, "a change by an actor demoted meanwhile", s.SetRole(ctx(t), f.org.ID, carol, organization.Admin, stale), adapter.ErrConflict)
	wantErr(t, "a removal by an actor demoted meanwhile", s.RemoveMembership(ctx(t), f.org.ID, carol, stale), adapter.ErrConflict)
	if m, err := s.Membership(ctx(t), f.org.ID, carol); err != nil || m.Role != organization.Member {
		t.Errorf("after the refusals carol is %+v, %v; want a member", m, err)
	}
	// Leaving, judged on one's own role as it is.
	if err := s.RemoveMembership(ctx(t), f.org.ID, carol, map[string]string{carol: organization.Member}); err != nil {
		t.Errorf("leaving: %v", err)
	}
}

// testOrgInvitationChecks: an invitation naming a custom role the
// organization does not have is ErrNotFound, one to an address with a
// pending invitation ErrConflict (an expired one does not count), and a
// renewal of an expired invitation while another to its address is
// pending ErrConflict; nothing is stored then.
func testOrgInvitationChecks(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	wantErr(t, "an invitation naming a custom role that does not exist", invite(t, s, f.org.ID, "a@example.com", "billing", now, now.Add(time.Hour), noLimit), adapter.ErrNotFound)
	if err := s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: "billing", Permissions: permission.MustSet("invoice:pay")}, noLimit); err != nil {
		t.Fatal(err)
	}
	if err := invite(t, s, f.org.ID, "a@example.com", "billing", now, now.Add(time.Hour), noLimit); err != nil {
		t.Fatalf("an invitation naming the role once it exists: %v", err)
	}
	second := organization.Invitation{ID: "second", OrganizationID: f.org.ID, Email: "a@example.com", Role: organization.Member,
		TokenHash: organization.HashToken("second"), Expires: now.Add(2 * time.Hour), CreatedAt: now}
	wantErr(t, "a second pending invitation to the address", s.CreateInvitation(ctx(t), second, false, noLimit), adapter.ErrConflict)
	if list, _ := s.Invitations(ctx(t), f.org.ID); len(list) != 1 {
		t.Errorf("after the refusals: %v", list)
	}
	// Once the first has expired, the address may be invited again; the
	// first, renewed, would be a second pending invitation.
	later := now.Add(90 * time.Minute)
	second.CreatedAt, second.Expires = later, later.Add(time.Hour)
	if err := s.CreateInvitation(ctx(t), second, false, noLimit); err != nil {
		t.Fatalf("an invitation to the address once the other expired: %v", err)
	}
	first := "inv-" + f.org.ID + "a@example.com"
	wantErr(t, "renewing an expired invitation to an address invited since", s.RenewInvitation(ctx(t), f.org.ID, first, "renewed", later.Add(time.Hour), true, noLimit, later), adapter.ErrConflict)
	if _, err := s.InvitationByToken(ctx(t), "renewed"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the refused renewal was stored: %v", err)
	}
}

// testRaceInviteOneAddress: Racers invitations to one address at once;
// one is made.
func testRaceInviteOneAddress(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	warmMembers(t, s, f.org.ID)
	errs := race(func(i int) error {
		return s.CreateInvitation(ctx(t), organization.Invitation{ID: fmt.Sprint("inv", i), OrganizationID: f.org.ID, Email: "eve@example.com",
			Role: organization.Member, TokenHash: organization.HashToken(fmt.Sprint("t", i)), Expires: now.Add(time.Hour), CreatedAt: now}, false, noLimit)
	})
	ok := succeeded(t, "CreateInvitation", errs, adapter.ErrConflict)
	list, err := s.Invitations(ctx(t), f.org.ID)
	if err != nil || ok != 1 || len(list) != 1 {
		t.Errorf("%d of %d concurrent invitations to one address succeeded and %d are stored (%v), want 1", ok, Racers, len(list), err)
	}
}

// testRaceDeleteRoleInvite: a custom role deleted while invitations
// naming it are made, at once (half the racers delete it, the other
// half in each round): either the deletion is refused or no invitation
// names the deleted role. Six rounds, each with a role of its own, so
// that a deletion comes first in some.
func testRaceDeleteRoleInvite(t *testing.T, a adapter.Adapter, s organization.Store) {
	f := makeOrg(t, a, s, "acme")
	warmMembers(t, s, f.org.ID)
	for round := range 6 {
		role := fmt.Sprint("billing", round)
		if err := s.CreateRole(ctx(t), f.org.ID, organization.Role{Name: role, Permissions: permission.MustSet("invoice:pay")}, noLimit); err != nil {
			t.Fatal(err)
		}
		errs := race(func(i int) error {
			if (i+round)%2 == 0 {
				return s.DeleteRole(ctx(t), f.org.ID, role, now)
			}
			return invite(t, s, f.org.ID, fmt.Sprintf("u%d-%d@example.com", round, i), role, now, now.Add(time.Hour), noLimit)
		})
		succeeded(t, "DeleteRole or CreateInvitation", errs, organization.ErrRoleInUse, adapter.ErrNotFound)
		roles, _ := s.Roles(ctx(t), f.org.ID)
		if slices.ContainsFunc(roles, func(r organization.Role) bool { return r.Name == role }) {
			continue
		}
		list, _ := s.Invitations(ctx(t), f.org.ID)
		for _, inv := range list {
			if inv.Role == role {
				t.Errorf("round %d: the role was deleted and the invitation %s names it", round, inv.ID)
			}
		}
	}
}
