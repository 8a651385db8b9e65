package adaptertest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// ownerStore is an adapter that keeps organizations and deletes users
// without leaving one of them ownerless (admin.OwnerKeeper).
type ownerStore interface {
	admin.OwnerKeeper
	organization.Store
}

// runOwnerKeeper runs the admin.OwnerKeeper tests on adapters that keep
// organizations too (through wrappers: adapter.Supports).
func runOwnerKeeper(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, []storeTest[ownerStore]{
		{"Admin/PurgeUnlessLastOwner", testPurgeLastOwner},
		{"Concurrency/PurgeOwnerVersusDemotion", testRacePurgeOwner},
	})
}

// owners returns how many owners the organization has.
func owners(t *testing.T, s organization.Store, orgID string) int {
	t.Helper()
	list, err := s.Members(ctx(t), orgID)
	if err != nil {
		t.Fatalf("Members(%s): %v", orgID, err)
	}
	n := 0
	for _, m := range list {
		if m.Role == organization.Owner {
			n++
		}
	}
	return n
}

// testPurgeLastOwner: the only owner of an organization is not deleted,
// and nothing of theirs is; once another member is an owner, they are,
// with their memberships; a member who owns nothing is; an unknown user
// is ErrNotFound.
func testPurgeLastOwner(t *testing.T, a adapter.Adapter, s ownerStore) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Admin)
	// f's owner also belongs to globex, as a member: not what refuses.
	hash := organization.HashToken("f-in-g")
	owner := mustGetUser(t, a, f.owner)
	if err := s.CreateInvitation(ctx(t), organization.Invitation{ID: "f-in-g", OrganizationID: g.org.ID, Email: owner.Email,
		Role: organization.Member, TokenHash: hash, Expires: now.AddDate(100, 0, 0), CreatedAt: now}, false, noLimit); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvitation(ctx(t), hash, owner.Email, f.owner, noLimit, noLimit, now); err != nil {
		t.Fatal(err)
	}

	err := s.PurgeUnlessLastOwner(ctx(t), f.owner)
	wantErr(t, "deleting acme's only owner", err, organization.ErrLastOwner)
	mustGetUser(t, a, f.owner)
	if _, err := s.Membership(ctx(t), f.org.ID, f.owner); err != nil {
		t.Errorf("the refused deletion took the membership of acme: %v", err)
	}
	if _, err := s.Membership(ctx(t), g.org.ID, f.owner); err != nil {
		t.Errorf("the refused deletion took the membership of globex: %v", err)
	}

	// A member who owns nothing goes.
	if err := s.PurgeUnlessLastOwner(ctx(t), bob); err != nil {
		t.Fatalf("deleting a member who owns nothing: %v", err)
	}
	if _, err := a.GetUser(ctx(t), bob); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the deleted member is still stored: %v", err)
	}

	// Ownership handed over: the former only owner goes, with every
	// membership.
	carol := join(t, a, s, f.org.ID, "carol@example.com", organization.Member)
	if err := s.SetRole(ctx(t), f.org.ID, carol, organization.Owner, map[string]string{carol: organization.Member}); err != nil {
		t.Fatal(err)
	}
	if err := s.PurgeUnlessLastOwner(ctx(t), f.owner); err != nil {
		t.Fatalf("deleting one of two owners: %v", err)
	}
	if _, err := a.GetUser(ctx(t), f.owner); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the deleted owner is still stored: %v", err)
	}
	for _, org := range []string{f.org.ID, g.org.ID} {
		if _, err := s.Membership(ctx(t), org, f.owner); !errors.Is(err, adapter.ErrNotFound) {
			t.Errorf("the deleted owner's membership of %s stays: %v", org, err)
		}
	}
	if n := owners(t, s, f.org.ID); n != 1 {
		t.Errorf("acme has %d owners after the deletion, want 1 (carol)", n)
	}
	wantErr(t, "deleting an unknown user", s.PurgeUnlessLastOwner(ctx(t), "no-such-user"), adapter.ErrNotFound)
}

// raceRounds is how many organizations testRacePurgeOwner races on at
// once.
const raceRounds = 50

// testRacePurgeOwner: in each of raceRounds organizations with two
// owners, the deletion of one owner races the demotion (or, in every
// other organization, the removal) of the other: exactly one of the two
// succeeds, and every organization keeps an owner.
func testRacePurgeOwner(t *testing.T, a adapter.Adapter, s ownerStore) {
	type round struct {
		org, doomed, other string
	}
	rounds := make([]round, raceRounds)
	for i := range rounds {
		f := makeOrg(t, a, s, fmt.Sprintf("race%d", i))
		other := join(t, a, s, f.org.ID, fmt.Sprintf("second%d@example.com", i), organization.Owner)
		rounds[i] = round{org: f.org.ID, doomed: f.owner, other: other}
	}
	purged := make([]error, raceRounds)
	demoted := make([]error, raceRounds)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, r := range rounds {
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			purged[i] = s.PurgeUnlessLastOwner(ctx(t), r.doomed)
		}()
		go func() {
			defer wg.Done()
			<-start
			if i%2 == 0 {
				demoted[i] = s.SetRole(ctx(t), r.org, r.other, organization.Member, map[string]string{r.other: organization.Owner})
			} else {
				demoted[i] = s.RemoveMembership(ctx(t), r.org, r.other, map[string]string{r.other: organization.Owner})
			}
		}()
	}
	close(start)
	wg.Wait()
	won := [2]int{}
	for i, r := range rounds {
		for _, err := range []error{purged[i], demoted[i]} {
			if err != nil && !errors.Is(err, organization.ErrLastOwner) {
				t.Errorf("round %d: %v", i, err)
			}
		}
		if (purged[i] == nil) == (demoted[i] == nil) {
			t.Errorf("round %d: the deletion returned %v, the other owner's change %v: want exactly one to succeed", i, purged[i], demoted[i])
		}
		if purged[i] == nil {
			won[0]++
		} else {
			won[1]++
		}
		if n := owners(t, s, r.org); n < 1 {
			t.Errorf("round %d: the organization has no owner left (deletion: %v, other owner's change: %v)", i, purged[i], demoted[i])
		}
	}
	t.Logf("%d deletions and %d demotions or removals won", won[0], won[1])
}
