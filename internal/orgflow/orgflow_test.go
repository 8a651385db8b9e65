package orgflow_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/orgflow"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// TestCrossOrganization: alice, owner of A, uses her session with B's
// ids, on every organization route (teams on), alone and mixed with A's.
// Each is refused, and B reads the same afterwards; a route added
// without a case here fails the test.
func TestCrossOrganization(t *testing.T) {
	for name, open := range stores(t) {
		for _, db := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/database=%v", name, db), func(t *testing.T) {
				s := newSite(t, open(t), db, &organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
				alice, bob := s.user("alice@example.com", 0), s.user("bob@example.com", 0)
				a, b := alice.create("Acme"), bob.create("Globex")
				carol := bob.join(b, "carol@example.com", organization.Member)
				bt := bob.createTeam(b, "b-team").ID
				if st := bob.post("/auth/organizations/"+b+"/teams/"+bt+"/members", url.Values{"userId": {carol.id}}, nil); st != http.StatusCreated {
					t.Fatalf("add carol to B's team: %d", st)
				}
				teamsBefore, teamBefore := bob.teamNames(b), bob.teamMembers(b, bt)
				if st := bob.post("/auth/organizations/"+b+"/roles", url.Values{"name": {"b-role"}, "permissions": {"project:read"}}, nil); st != 200 {
					t.Fatalf("create B's role: %d", st)
				}
				inv, token := bob.invite(b, "dave@example.com", organization.Member)
				before := bob.view(b)
				if len(before.Invitations) != 1 || len(before.Members) != 2 {
					t.Fatalf("B before: %+v", before)
				}
				del := url.Values{}
				cases := []struct {
					method, path string
					form         url.Values
				}{
					{"GET", "/auth/organizations/" + b, nil},
					{"POST", "/auth/organizations/" + b + "/update", url.Values{"name": {"Pwned"}, "slug": {"pwned"}}},
					{"POST", "/auth/organizations/" + b + "/delete", del},
					{"POST", "/auth/organizations/" + b + "/leave", del},
					{"POST", "/auth/organizations/" + b + "/members/" + carol.id + "/remove", del},
					{"POST", "/auth/organizations/" + b + "/members/" + bob.id + "/remove", del},
					{"POST", "/auth/organizations/" + b + "/members/" + carol.id + "/role", url.Values{"role": {"owner"}}},
					{"POST", "/auth/organizations/" + b + "/members/" + alice.id + "/role", url.Values{"role": {"owner"}}},
					{"POST", "/auth/organizations/" + b + "/roles", url.Values{"name": {"x"}, "permissions": {"project:read"}}},
					{"POST", "/auth/organizations/" + b + "/roles/b-role/update", url.Values{"permissions": {"project:delete"}}},
					{"POST", "/auth/organizations/" + b + "/roles/b-role/delete", del},
					{"GET", "/auth/organizations/" + b + "/invitations", nil},
					{"POST", "/auth/organizations/" + b + "/invitations", url.Values{"email": {"mallory@example.com"}, "role": {"owner"}}},
					{"POST", "/auth/organizations/" + b + "/invitations/" + inv.ID + "/resend", del},
					{"POST", "/auth/organizations/" + b + "/invitations/" + inv.ID + "/cancel", del},
					{"POST", "/auth/organizations/active", url.Values{"organizationId": {b}}},
					{"GET", "/auth/organizations/" + b + "/teams", nil},
					{"POST", "/auth/organizations/" + b + "/teams", url.Values{"name": {"x-team"}}},
					{"POST", "/auth/organizations/" + b + "/teams/" + bt + "/update", url.Values{"name": {"Pwned"}}},
					{"POST", "/auth/organizations/" + b + "/teams/" + bt + "/delete", del},
					{"GET", "/auth/organizations/" + b + "/teams/" + bt + "/members", nil},
					{"POST", "/auth/organizations/" + b + "/teams/" + bt + "/members", url.Values{"userId": {alice.id}}},
					{"POST", "/auth/organizations/" + b + "/teams/" + bt + "/members/" + carol.id + "/remove", del},
					// A's id with B's member, role and invitation.
					{"POST", "/auth/organizations/" + a + "/members/" + carol.id + "/remove", del},
					{"POST", "/auth/organizations/" + a + "/members/" + carol.id + "/role", url.Values{"role": {"admin"}}},
					{"POST", "/auth/organizations/" + a + "/members/" + bob.id + "/role", url.Values{"role": {"member"}}},
					{"POST", "/auth/organizations/" + a + "/roles/b-role/update", url.Values{"permissions": {"project:delete"}}},
					{"POST", "/auth/organizations/" + a + "/roles/b-role/delete", del},
					{"POST", "/auth/organizations/" + a + "/invitations/" + inv.ID + "/resend", del},
					{"POST", "/auth/organizations/" + a + "/invitations/" + inv.ID + "/cancel", del},
					{"POST", "/auth/organizations/" + a + "/teams/" + bt + "/update", url.Values{"name": {"Pwned"}}},
					{"POST", "/auth/organizations/" + a + "/teams/" + bt + "/delete", del},
					{"GET", "/auth/organizations/" + a + "/teams/" + bt + "/members", nil},
					{"POST", "/auth/organizations/" + a + "/teams/" + bt + "/members", url.Values{"userId": {carol.id}}},
					{"POST", "/auth/organizations/" + a + "/teams/" + bt + "/members/" + carol.id + "/remove", del},
					// B's invitation, by its token, for another address.
					{"POST", "/auth/organizations/invitation/accept", url.Values{"token": {token}}},
					{"POST", "/auth/organizations/invitation/decline", url.Values{"token": {token}}},
				}
				for _, c := range cases {
					var form url.Values
					if c.form != nil {
						form = url.Values{}
						for k, v := range c.form {
							form[k] = v
						}
					}
					var out errBody
					var st int
					if c.method == "GET" {
						st = alice.get(c.path, &out)
					} else {
						st = alice.post(c.path, form, &out)
					}
					if st != http.StatusNotFound && st != http.StatusForbidden {
						t.Errorf("%s %s by A's owner: %d %+v, want 404 or 403", c.method, c.path, st, out)
					}
				}
				// Every route of an organization has a case above.
				for _, rt := range (&orgflow.Routes{}).Routes() {
					if !strings.Contains(rt.Pattern, "{org}") {
						continue // the user's own list, or an id-less route with a case above
					}
					re := regexp.MustCompile("^/auth" + regexp.MustCompile(`\{[a-z]+\}`).ReplaceAllString(rt.Pattern, "[^/]+") + "$")
					covered := false
					for _, c := range cases {
						covered = covered || (c.method == rt.Method && re.MatchString(c.path))
					}
					if !covered {
						t.Errorf("no cross-organization case for %s %s", rt.Method, rt.Pattern)
					}
				}
				after := bob.view(b)
				if !reflect.DeepEqual(before, after) {
					t.Errorf("B changed:\nbefore %+v\nafter  %+v", before, after)
				}
				if names, members := bob.teamNames(b), bob.teamMembers(b, bt); !reflect.DeepEqual(names, teamsBefore) || !reflect.DeepEqual(members, teamBefore) {
					t.Errorf("B's teams changed: %v %v, were %v %v", names, members, teamsBefore, teamBefore)
				}
				if v := alice.view(a); len(v.Members) != 1 || len(v.Roles) != 3 {
					t.Errorf("A gained B's members or roles: %+v", v)
				}
				if ok := alice.can(); ok {
					t.Error("alice can project:delete with B active")
				}
			})
		}
	}
}

// can asks /app/can.
func (c *client) can() bool {
	var ok bool
	if st := c.get("/app/can", &ok); st != 200 {
		c.s.t.Fatalf("/app/can: %d", st)
	}
	return ok
}

// TestLastOwner: the last owner can neither leave, nor be removed, nor
// demoted; an admin cannot touch an owner.
func TestLastOwner(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	admin := owner.join(org, "admin@example.com", organization.Admin)
	path := "/auth/organizations/" + org
	var out errBody
	if st := owner.post(path+"/leave", nil, &out); st != http.StatusConflict || out.Error != "last_owner" {
		t.Errorf("the last owner leaves: %d %+v", st, out)
	}
	if st := owner.post(path+"/members/"+owner.id+"/role", url.Values{"role": {"admin"}}, &out); st != http.StatusConflict || out.Error != "last_owner" {
		t.Errorf("the last owner demotes themselves: %d %+v", st, out)
	}
	if st := admin.post(path+"/members/"+owner.id+"/remove", nil, &out); st != http.StatusForbidden {
		t.Errorf("an admin removes the owner: %d %+v", st, out)
	}
	if st := admin.post(path+"/members/"+owner.id+"/role", url.Values{"role": {"member"}}, &out); st != http.StatusForbidden {
		t.Errorf("an admin demotes the owner: %d %+v", st, out)
	}
	second := owner.join(org, "second@example.com", organization.Owner)
	if st := second.post(path+"/members/"+owner.id+"/role", url.Values{"role": {"member"}}, nil); st != 200 {
		t.Fatalf("an owner demotes one of two owners: %d", st)
	}
	if st := second.post(path+"/leave", nil, &out); st != http.StatusConflict {
		t.Errorf("the remaining owner leaves: %d %+v", st, out)
	}
	if v := second.view(org); ownersOf(v) != 1 {
		t.Errorf("owners: %d", ownersOf(v))
	}
}

func ownersOf(v organization.View) int {
	n := 0
	for _, m := range v.Members {
		if m.Role == organization.Owner {
			n++
		}
	}
	return n
}

// TestLastOwnerConcurrent: on PostgreSQL, through two Handlers on one
// database, two owners demote each other and themselves with 40
// requests at once: one owner is left.
func TestLastOwnerConcurrent(t *testing.T) {
	a1, a2 := pgAdapter(t)
	s1 := newSite(t, a1, true, &organization.Config{})
	s2 := newSite(t, a2, true, &organization.Config{})
	first := s1.user("first@example.com", 0)
	org := first.create("Acme")
	second := first.join(org, "second@example.com", organization.Owner)
	u2, _ := a2.GetUser(t.Context(), second.id)
	second2 := s2.signIn(u2, 0) // the second owner on the other instance
	var mu sync.Mutex
	demoted := map[string]int{} // successful demotions by target
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 40 {
		c, target := first, []string{first.id, second.id}[i%2]
		if i%4 >= 2 {
			c = second2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if c.post("/auth/organizations/"+org+"/members/"+target+"/role", url.Values{"role": {"member"}}, nil) == 200 {
				mu.Lock()
				demoted[target]++
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	members, _ := a1.Members(t.Context(), org)
	var owners []string
	for _, m := range members {
		if m.Role == organization.Owner {
			owners = append(owners, m.UserID)
		}
	}
	// Demoting a member again is no change, and succeeds; demoting the
	// owner who is left never did.
	if len(owners) != 1 || demoted[owners[0]] != 0 || len(demoted) != 1 {
		t.Errorf("owners left %v, successful demotions by target %v; want one owner, never demoted", owners, demoted)
	}
}

// TestRolesBounded: an admin (everything but organization:delete) cannot
// make a role with organization:delete, nor give a member a role above
// their own; statements must be declared; a member cannot make roles.
func TestRolesBounded(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	admin := owner.join(org, "admin@example.com", organization.Admin)
	member := owner.join(org, "member@example.com", organization.Member)
	path := "/auth/organizations/" + org
	var out errBody
	if st := admin.post(path+"/roles", url.Values{"name": {"deleter"}, "permissions": {"organization:delete project:read"}}, &out); st != http.StatusForbidden {
		t.Errorf("admin makes a role with organization:delete: %d %+v", st, out)
	}
	if st := admin.post(path+"/roles", url.Values{"name": {"typo"}, "permissions": {"project:destroy"}}, &out); st != http.StatusBadRequest {
		t.Errorf("a role with an undeclared statement: %d %+v", st, out)
	}
	if st := admin.post(path+"/roles", url.Values{"name": {"owner"}, "permissions": {"project:read"}}, &out); st != http.StatusConflict {
		t.Errorf("a role named owner: %d %+v", st, out)
	}
	if st := member.post(path+"/roles", url.Values{"name": {"mine"}, "permissions": {"project:read"}}, &out); st != http.StatusForbidden {
		t.Errorf("a member makes a role: %d %+v", st, out)
	}
	if st := admin.post(path+"/roles", url.Values{"name": {"reader"}, "permission": {"project:read"}}, nil); st != 200 {
		t.Fatalf("admin makes a role within theirs: %d", st)
	}
	if st := owner.post(path+"/roles", url.Values{"name": {"deleter"}, "permissions": {"organization:delete"}}, nil); st != 200 {
		t.Fatalf("owner makes a role with organization:delete: %d", st)
	}
	if st := admin.post(path+"/roles/deleter/update", url.Values{"permissions": {"project:read"}}, &out); st != http.StatusForbidden {
		t.Errorf("admin edits a role above theirs: %d %+v", st, out)
	}
	if st := admin.post(path+"/members/"+member.id+"/role", url.Values{"role": {"owner"}}, &out); st != http.StatusForbidden {
		t.Errorf("admin makes a member owner: %d %+v", st, out)
	}
	if st := admin.post(path+"/members/"+member.id+"/role", url.Values{"role": {"deleter"}}, &out); st != http.StatusForbidden {
		t.Errorf("admin gives a role above theirs: %d %+v", st, out)
	}
	if st := admin.post(path+"/members/"+admin.id+"/role", url.Values{"role": {"owner"}}, &out); st != http.StatusForbidden {
		t.Errorf("admin promotes themselves: %d %+v", st, out)
	}
	var inv struct{ Error string }
	if st := admin.post(path+"/invitations", url.Values{"email": {"x@example.com"}, "role": {"owner"}}, &inv); st != http.StatusForbidden {
		t.Errorf("admin invites an owner: %d %+v", st, inv)
	}
	if st := admin.post(path+"/members/"+member.id+"/role", url.Values{"role": {"reader"}}, nil); st != 200 {
		t.Errorf("admin gives a role within theirs: %d", st)
	}
	if st := admin.post(path+"/roles/reader/delete", nil, &out); st != http.StatusConflict || out.Error != "role_in_use" {
		t.Errorf("deleting a role in use: %d %+v", st, out)
	}
	if st := member.post(path+"/update", url.Values{"name": {"Mine"}}, &out); st != http.StatusForbidden {
		t.Errorf("a member renames: %d %+v", st, out)
	}
	if st := admin.post(path+"/delete", nil, &out); st != http.StatusForbidden || out.Code == "fresh_sign_in" {
		t.Errorf("an admin deletes: %d %+v", st, out)
	}
	if v := member.view(org); v.Invitations != nil {
		t.Errorf("a member sees the invitations: %v", v.Invitations)
	}
}

// TestDeleteNeedsFreshSignIn: the owner of an old session cannot delete;
// of a fresh one can, and everything goes.
func TestDeleteNeedsFreshSignIn(t *testing.T) {
	a := memory.New()
	s := newSite(t, a, false, &organization.Config{})
	stale := s.user("owner@example.com", 48*time.Hour)
	org := stale.create("Acme")
	var out errBody
	if st := stale.post("/auth/organizations/"+org+"/delete", nil, &out); st != http.StatusForbidden || out.Code != "fresh_sign_in" {
		t.Fatalf("delete with a day-old sign-in: %d %+v", st, out)
	}
	u, _ := a.GetUser(t.Context(), stale.id)
	fresh := s.signIn(u, 0)
	if st := fresh.post("/auth/organizations/"+org+"/delete", nil, nil); st != 200 {
		t.Fatalf("delete with a fresh sign-in: %d", st)
	}
	if st := fresh.get("/auth/organizations/"+org, nil); st != http.StatusNotFound {
		t.Errorf("after delete: %d", st)
	}
}

// TestInvitations: the invited address alone accepts, once, before the
// expiry; a link answered to the inviter needs a verified address.
func TestInvitations(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	a := memory.New()
	s := newSite(t, a, false, &organization.Config{Now: clock})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	_, token := owner.invite(org, "Eve@Example.com", organization.Admin)
	var out errBody
	if st := owner.post("/auth/organizations/"+org+"/invitations", url.Values{"email": {"eve@example.com"}}, &out); st != http.StatusConflict {
		t.Errorf("a second invitation to the address: %d %+v", st, out)
	}
	mallory := s.user("mallory@example.com", 0)
	if st := mallory.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, &out); st != http.StatusForbidden || out.Error != "wrong_recipient" {
		t.Errorf("accept by another address: %d %+v", st, out)
	}
	if st := mallory.post("/auth/organizations/invitation/accept", url.Values{"token": {token}, "email": {"eve@example.com"}}, &out); st != http.StatusForbidden {
		t.Errorf("accept with the invited address in the form: %d %+v", st, out)
	}
	unverified, _ := a.CreateUser(t.Context(), adapter.User{Email: "eve@example.com"})
	eve := s.signIn(unverified, 0)
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, &out); st != http.StatusForbidden || out.Code != "unverified_address" {
		t.Errorf("an unverified address accepts a link answered to the inviter: %d %+v", st, out)
	}
	at := time.Now()
	unverified.EmailVerified = &at
	a.UpdateUser(t.Context(), unverified)
	var m organization.Membership
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, &m); st != 200 || m.Role != organization.Admin || m.OrganizationID != org {
		t.Fatalf("accept: %d %+v", st, m)
	}
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, &out); st != http.StatusNotFound {
		t.Errorf("accept twice: %d %+v", st, out)
	}
	_, late := owner.invite(org, "late@example.com", organization.Member)
	lateUser := s.user("late@example.com", 0)
	mu.Lock()
	now = now.Add(organization.DefaultInvitationExpiry + time.Minute)
	mu.Unlock()
	if st := lateUser.post("/auth/organizations/invitation/accept", url.Values{"token": {late}}, &out); st != http.StatusGone {
		t.Errorf("accept after expiry: %d %+v", st, out)
	}
	if v := owner.view(org); len(v.Members) != 2 {
		t.Errorf("members: %+v", v.Members)
	}
}

// TestInvitationResendAndSender: with a sender the link goes to the
// address and not to the inviter; a resend makes the old link useless;
// accepting a sent link proves the address.
func TestInvitationResendAndSender(t *testing.T) {
	var mu sync.Mutex
	var sent []organization.Message
	a := memory.New()
	s := newSite(t, a, false, &organization.Config{SendInvitation: func(_ context.Context, m organization.Message) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, m)
		return nil
	}})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	var out struct {
		Invitation organization.Invitation
		Sent       bool
		Link       string
	}
	if st := owner.post("/auth/organizations/"+org+"/invitations", url.Values{"email": {"eve@example.com"}}, &out); st != http.StatusCreated || !out.Sent || out.Link != "" {
		t.Fatalf("invite with a sender: %d %+v", st, out)
	}
	if st := owner.post("/auth/organizations/"+org+"/invitations/"+out.Invitation.ID+"/resend", nil, &out); st != 200 || out.Link != "" {
		t.Fatalf("resend: %d %+v", st, out)
	}
	if len(sent) != 2 || sent[0].Organization.Name != "Acme" || sent[1].Invitation.Email != "eve@example.com" {
		t.Fatalf("sent: %+v", sent)
	}
	token := func(m organization.Message) string { u, _ := url.Parse(m.URL); return u.Query().Get("token") }
	unverified, _ := a.CreateUser(t.Context(), adapter.User{Email: "eve@example.com"})
	eve := s.signIn(unverified, 0)
	var e errBody
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {token(sent[0])}}, &e); st != http.StatusNotFound {
		t.Errorf("the link of before the resend: %d %+v", st, e)
	}
	if st := eve.get("/auth/organizations/invitation?token="+url.QueryEscape(token(sent[1])), nil); st != 200 {
		t.Errorf("show the invitation: %d", st)
	}
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {token(sent[1])}}, &e); st != 200 {
		t.Fatalf("accept the sent link: %d %+v", st, e)
	}
	if u, _ := a.GetUser(t.Context(), eve.id); u.EmailVerified == nil {
		t.Error("accepting a sent link did not mark the address verified")
	}
}

// TestInvitationLimit: an inviter sends 20 an hour.
func TestInvitationLimit(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	for i := range 20 {
		owner.invite(org, fmt.Sprintf("u%d@example.com", i), organization.Member)
	}
	if st := owner.post("/auth/organizations/"+org+"/invitations", url.Values{"email": {"one-more@example.com"}}, nil); st != http.StatusTooManyRequests {
		t.Errorf("the 21st invitation: %d", st)
	}
}

// TestConcurrentAccept: 20 accepts of one link at once, on PostgreSQL
// through two Handlers: one joins.
func TestConcurrentAccept(t *testing.T) {
	a1, a2 := pgAdapter(t)
	s1 := newSite(t, a1, true, &organization.Config{})
	s2 := newSite(t, a2, false, &organization.Config{})
	owner := s1.user("owner@example.com", 0)
	org := owner.create("Acme")
	_, token := owner.invite(org, "eve@example.com", organization.Member)
	eve := s1.user("eve@example.com", 0)
	u, _ := a2.GetUser(t.Context(), eve.id)
	eve2 := s2.signIn(u, 0)
	var ok atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 20 {
		c := []*client{eve, eve2}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if c.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, nil) == 200 {
				ok.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if n := ok.Load(); n != 1 {
		t.Errorf("%d of 20 concurrent accepts succeeded, want 1", n)
	}
}

// TestActiveOrganization: only a member makes an organization active;
// GET {base}/session shows it; Can and RequirePermission check the
// active organization's role; after removal the next request is refused,
// on both session strategies and across two Handlers on one database.
func TestActiveOrganization(t *testing.T) {
	for _, db := range []bool{false, true} {
		t.Run(fmt.Sprintf("database=%v", db), func(t *testing.T) {
			a1, a2 := pgAdapter(t)
			s := newSite(t, a1, db, &organization.Config{Roles: []organization.Role{{Name: "developer", Permissions: permission.MustSet("project:read", "project:delete")}}})
			other := newSite(t, a2, db, &organization.Config{Roles: []organization.Role{{Name: "developer", Permissions: permission.MustSet("project:read", "project:delete")}}})
			owner := s.user("owner@example.com", 0)
			org := owner.create("Acme")
			stranger := s.user("stranger@example.com", 0)
			strangerOrg := stranger.create("Else")
			dev := owner.join(org, "dev@example.com", "developer")
			member := owner.join(org, "member@example.com", organization.Member)
			var out errBody
			if st := dev.post("/auth/organizations/active", url.Values{"organizationId": {strangerOrg}}, &out); st != http.StatusNotFound {
				t.Errorf("activate an organization of others: %d %+v", st, out)
			}
			if st := dev.get("/app/delete", &out); st != http.StatusForbidden || out.Code != "no_active_organization" {
				t.Errorf("no active organization: %d %+v", st, out)
			}
			for _, c := range []*client{dev, member} {
				if st := c.post("/auth/organizations/active", url.Values{"organizationId": {org}}, nil); st != 200 {
					t.Fatalf("activate: %d", st)
				}
			}
			var sess struct{ ActiveOrganizationID string }
			if dev.get("/auth/session", &sess); sess.ActiveOrganizationID != org {
				t.Errorf("GET /session activeOrganizationId = %q, want %q", sess.ActiveOrganizationID, org)
			}
			if !dev.can() || member.can() {
				t.Errorf("Can: developer %v, member %v; want true, false", dev.can(), member.can())
			}
			var allowed struct{ Allowed bool }
			if st := dev.get("/auth/organizations/can?permission=project:delete", &allowed); st != 200 || !allowed.Allowed {
				t.Errorf("GET can for the developer: %d %+v", st, allowed)
			}
			if st := member.get("/auth/organizations/can?permission=project:delete", &allowed); st != 200 || allowed.Allowed {
				t.Errorf("GET can for a member: %d %+v", st, allowed)
			}
			if st := member.get("/auth/organizations/can?permission=project", &out); st != http.StatusBadRequest {
				t.Errorf("GET can of an invalid statement: %d %+v", st, out)
			}
			if st := member.get("/app/delete", &out); st != http.StatusForbidden || out.Code != "missing_permission" {
				t.Errorf("a member on a project:delete route: %d %+v", st, out)
			}
			if st := dev.get("/app/delete", nil); st != 200 {
				t.Errorf("a developer on a project:delete route: %d", st)
			}
			// Removed on the other instance; the next request here is refused.
			o2 := other.signIn(mustUser(t, a2, owner.id), 0)
			if st := o2.post("/auth/organizations/"+org+"/members/"+dev.id+"/remove", nil, nil); st != 200 {
				t.Fatalf("remove on the other instance: %d", st)
			}
			if st := dev.get("/app/delete", &out); st != http.StatusForbidden {
				t.Errorf("after removal: %d %+v", st, out)
			}
			if dev.can() {
				t.Error("Can after removal")
			}
			sess.ActiveOrganizationID = ""
			if dev.get("/auth/session", &sess); sess.ActiveOrganizationID != "" {
				t.Errorf("after removal GET /session still shows %q", sess.ActiveOrganizationID)
			}
		})
	}
}

func mustUser(t *testing.T, a adapter.Adapter, id string) adapter.User {
	u, err := a.GetUser(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// bare is an adapter with none of the optional method sets.
type bare struct{ adapter.Adapter }

// TestSetupRefuses: organizations need a store behind the adapter (a
// redisstore over a primary without one is refused, though it has the
// methods), and a sender needs Config.URL.
func TestSetupRefuses(t *testing.T) {
	c := redistest.NewClient(t)
	for name, a := range map[string]adapter.Adapter{
		"bare":            bare{memory.New()},
		"redis over bare": redisstore.New(c, bare{memory.New()}, redisstore.Options{Prefix: redistest.Prefix(t, c)}),
	} {
		_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: a, Providers: devProviders(t),
			Organizations: organization.Enable(organization.Config{})})
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || ce.Field != "Organizations" {
			t.Errorf("%s: %v, want a ConfigError on Organizations", name, err)
		}
	}
	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: memory.New(), Providers: devProviders(t),
		Organizations: organization.Enable(organization.Config{SendInvitation: func(context.Context, organization.Message) error { return nil }})})
	if err == nil {
		t.Error("a sender without Config.URL")
	}
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: memory.New(), Providers: devProviders(t)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Can(httptest.NewRequest("GET", "/", nil), "project:delete"); err == nil {
		t.Error("Can with organizations off: no error")
	}
}

// TestInvitationBySMTP: without SendInvitation, an e-mail provider's SMTP
// server carries the invitation, with the organization's name escaped in
// its HTML; the inviter never sees the link.
func TestInvitationBySMTP(t *testing.T) {
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	a := memory.New()
	s := newSite(t, a, false, &organization.Config{}, email.Config{Server: ms.URL(), From: "Site <site@example.com>"})
	owner := s.user("owner@example.com", 0)
	var o organization.Organization
	if st := owner.post("/auth/organizations", url.Values{"name": {"<b>Acme</b>"}, "slug": {"acme"}}, &o); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	var out struct {
		Sent bool
		Link string
	}
	if st := owner.post("/auth/organizations/"+o.ID+"/invitations", url.Values{"email": {"eve@example.com"}}, &out); st != http.StatusCreated || !out.Sent || out.Link != "" {
		t.Fatalf("invite: %d %+v", st, out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	msg, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.To) != 1 || msg.To[0] != "eve@example.com" || !strings.Contains(msg.Subject, "<b>Acme</b>") ||
		strings.Contains(msg.HTML, "<b>Acme</b>") || !strings.Contains(msg.HTML, "&lt;b&gt;Acme&lt;/b&gt;") {
		t.Errorf("message: to %v, subject %q\n%s", msg.To, msg.Subject, msg.HTML)
	}
	if !strings.HasPrefix(msg.Subject, "You are invited to join") || !strings.Contains(msg.Text, "Accept the invitation") {
		t.Errorf("English invitation: subject %q\n%s", msg.Subject, msg.Text)
	}
	// An inviter whose pages are German sends the invitation in German.
	owner.lang = "de"
	if st := owner.post("/auth/organizations/"+o.ID+"/invitations", url.Values{"email": {"fritz@example.com"}}, nil); st != http.StatusCreated {
		t.Fatalf("invite in German: %d", st)
	}
	owner.lang = ""
	de, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if de.Subject != "Sie sind eingeladen, <b>Acme</b> beizutreten" || !strings.Contains(de.Text, "Einladung annehmen") ||
		strings.Contains(de.Text, "invited") || !strings.Contains(de.HTML, "&lt;b&gt;Acme&lt;/b&gt;") {
		t.Errorf("German invitation: subject %q\n%s", de.Subject, de.Text)
	}
	link, _ := url.Parse(msg.Link())
	unverified, _ := a.CreateUser(t.Context(), adapter.User{Email: "eve@example.com"})
	eve := s.signIn(unverified, 0)
	if st := eve.post("/auth/organizations/invitation/accept", url.Values{"token": {link.Query().Get("token")}}, nil); st != 200 {
		t.Fatalf("accept the mailed link: %d", st)
	}
}

// TestDisableCreate: the route refuses, the Service still creates.
func TestDisableCreate(t *testing.T) {
	a := memory.New()
	s := newSite(t, a, false, &organization.Config{DisableCreate: true})
	u := s.user("owner@example.com", 0)
	if st := u.post("/auth/organizations", url.Values{"name": {"Acme"}}, nil); st != http.StatusForbidden {
		t.Errorf("create with DisableCreate: %d", st)
	}
	if l, _ := a.Organizations(t.Context(), u.id); len(l) != 0 {
		t.Errorf("stored: %v", l)
	}
}

// TestPermissionIgnoresCookieBesideBearer: with Session.Bearer on, a
// request judged by its Authorization header (a Bearer token, even one
// that does not open) is not judged by the session cookie it also
// carries: RequirePermission answers 401 and Can false, through the
// Middleware or without it. A cookie sent beside a key or a token must
// not lend its user's permissions to the caller the header names.
func TestPermissionIgnoresCookieBesideBearer(t *testing.T) {
	for _, db := range []bool{false, true} {
		t.Run(fmt.Sprintf("database=%v", db), func(t *testing.T) {
			s := newSiteWith(t, memory.New(), db, &organization.Config{}, func(c *gatehouse.SessionConfig) { c.Bearer = true })
			owner := s.user("owner@example.com", 0)
			org := owner.create("Acme")
			if st := owner.post("/auth/organizations/active", url.Values{"organizationId": {org}}, nil); st != 200 {
				t.Fatalf("activate: %d", st)
			}
			if st := owner.get("/app/delete", nil); st != 200 || !owner.can() {
				t.Fatalf("the owner's cookie alone: %d, can %v; want 200, true", st, owner.can())
			}
			u, _ := url.Parse(s.srv.URL)
			send := func(h http.Handler, path string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodGet, s.srv.URL+path, nil)
				for _, c := range owner.c.Jar.Cookies(u) {
					r.AddCookie(c)
				}
				r.Header.Set("Authorization", "Bearer not-a-session-token")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w
			}
			deleted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "deleted") })
			can := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ok, err := s.h.Can(r, "project:delete")
				fmt.Fprint(w, ok, err)
			})
			for name, h := range map[string]http.Handler{
				"without the Middleware": s.h.RequirePermission("project:delete")(deleted),
				"through the Middleware": s.h.Middleware(s.h.RequirePermission("project:delete")(deleted)),
			} {
				if w := send(h, "/app/delete"); w.Code != http.StatusUnauthorized {
					t.Errorf("RequirePermission %s, a cookie beside a Bearer token: %d %s; want 401", name, w.Code, w.Body)
				}
			}
			for name, h := range map[string]http.Handler{"without the Middleware": can, "through the Middleware": s.h.Middleware(can)} {
				if w := send(h, "/app/can"); w.Body.String() != "false <nil>" {
					t.Errorf("Can %s, a cookie beside a Bearer token: %s; want false", name, w.Body)
				}
			}
		})
	}
}
