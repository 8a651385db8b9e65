package orgcore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// changesAfterRead is a store that, the first time the Service reads
// the membership of user, changes that member's role to role: a change
// made by a concurrent request between the Service's check and its
// write.
type changesAfterRead struct {
	*memory.Adapter
	user, role string
	once       *sync.Once
}

func (s changesAfterRead) Membership(ctx context.Context, orgID, userID string) (orgcore.Membership, error) {
	m, err := s.Adapter.Membership(ctx, orgID, userID)
	if err == nil && userID == s.user {
		s.once.Do(func() {
			if err := s.Adapter.SetRole(ctx, orgID, userID, s.role, map[string]string{userID: m.Role}); err != nil {
				panic(err)
			}
		})
	}
	return m, err
}

// TestJudgedRoleChanged: an administrator's demotion or removal of a
// member who is made an owner meanwhile, or made by an administrator
// demoted meanwhile, is ErrConflict and changes nothing: the Store's
// write checks the roles the Service judged.
func TestJudgedRoleChanged(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		changed string // whose role changes after the read: "target" or "actor"
		remove  bool
	}{
		{"demoting a member made an owner", "target", false},
		{"removing a member made an owner", "target", true},
		{"demoting by an admin demoted", "actor", false},
		{"removing by an admin demoted", "actor", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := memory.New()
			owner, admin, bob := newUser(t, store, "owner@example.com"), newUser(t, store, "admin@example.com"), newUser(t, store, "bob@example.com")
			plain, err := orgcore.New(orgcore.Config{}, store)
			if err != nil {
				t.Fatal(err)
			}
			org, err := plain.Create(ctx, owner, "Acme", "")
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range []struct{ id, addr, role string }{{admin, "admin@example.com", orgcore.Admin}, {bob, "bob@example.com", orgcore.Admin}} {
				_, token, err := plain.Invite(ctx, owner, org.ID, u.addr, u.role)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := plain.Accept(ctx, token, u.id, u.addr); err != nil {
					t.Fatal(err)
				}
			}
			wrapped := changesAfterRead{Adapter: store, user: bob, role: orgcore.Owner, once: &sync.Once{}}
			wantBob, wantAdmin := orgcore.Owner, orgcore.Admin
			if tc.changed == "actor" {
				wrapped.user, wrapped.role = admin, orgcore.Member
				wantBob, wantAdmin = orgcore.Admin, orgcore.Member
			}
			svc, err := orgcore.New(orgcore.Config{}, wrapped)
			if err != nil {
				t.Fatal(err)
			}
			if tc.remove {
				err = svc.Remove(ctx, admin, org.ID, bob)
			} else {
				err = svc.SetRole(ctx, admin, org.ID, bob, orgcore.Member)
			}
			if !errors.Is(err, orgcore.ErrRoleChanged) || !errors.Is(err, orgcore.ErrConflict) {
				t.Errorf("got %v, want ErrRoleChanged, an ErrConflict", err)
			}
			if m, err := store.Membership(ctx, org.ID, bob); err != nil || m.Role != wantBob {
				t.Errorf("bob is %+v, %v; want %s", m, err, wantBob)
			}
			if m, _ := store.Membership(ctx, org.ID, admin); m.Role != wantAdmin {
				t.Errorf("the admin is %q, want %s", m.Role, wantAdmin)
			}
		})
	}
}

// TestJudgedSelf: leaving, and an owner changing their own role, judge
// the actor's own role and keep working.
func TestJudgedSelf(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	owner, bob := newUser(t, store, "owner@example.com"), newUser(t, store, "bob@example.com")
	svc, org := newOrg(t, orgcore.Config{}, store, owner)
	_, token, err := svc.Invite(ctx, owner, org.ID, "bob@example.com", orgcore.Owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(ctx, token, bob, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetRole(ctx, owner, org.ID, owner, orgcore.Admin); err != nil {
		t.Errorf("an owner of two making themself an admin: %v", err)
	}
	if err := svc.Leave(ctx, owner, org.ID); err != nil {
		t.Errorf("leaving: %v", err)
	}
	if err := svc.Remove(ctx, bob, org.ID, bob); !errors.Is(err, orgcore.ErrLastOwner) {
		t.Errorf("the last owner removing themself: %v, want ErrLastOwner", err)
	}
}

// TestConcurrentInvitations: concurrent invitations to one address make
// one, the others are the ErrConflict of an address already invited;
// and invitations naming a custom role made while it is deleted never
// name a deleted role.
func TestConcurrentInvitations(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	owner := newUser(t, store, "owner@example.com")
	svc, org := newOrg(t, orgcore.Config{}, slowReads{store}, owner)
	race := func(f func(i int) error, ok ...error) {
		t.Helper()
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := f(i)
				for _, e := range ok {
					if errors.Is(err, e) {
						return
					}
				}
				if err != nil {
					t.Errorf("%v", err)
				}
			}()
		}
		close(start)
		wg.Wait()
	}
	race(func(int) error {
		_, _, err := svc.Invite(ctx, owner, org.ID, "eve@example.com", "")
		return err
	}, orgcore.ErrConflict)
	if pending, _ := svc.Invitations(ctx, owner, org.ID); len(pending) != 1 {
		t.Errorf("20 concurrent invitations to one address: %d pending, want 1", len(pending))
	}

	for round := range 6 {
		role := fmt.Sprint("billing", round)
		if _, err := svc.CreateRole(ctx, owner, org.ID, role, nil); err != nil {
			t.Fatal(err)
		}
		race(func(i int) error {
			if (i+round)%2 == 0 {
				return svc.DeleteRole(ctx, owner, org.ID, role)
			}
			_, _, err := svc.Invite(ctx, owner, org.ID, fmt.Sprintf("u%d-%d@example.com", round, i), role)
			return err
		}, orgcore.ErrRoleInUse, orgcore.ErrNotFound, orgcore.ErrInvalid)
		roles, err := store.Roles(ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		exists := false
		for _, r := range roles {
			exists = exists || r.Name == role
		}
		list, _ := store.Invitations(ctx, org.ID)
		for _, inv := range list {
			if inv.Role == role && !exists {
				t.Errorf("round %d: the role was deleted and the invitation to %s names it", round, inv.Email)
			}
		}
	}
}
