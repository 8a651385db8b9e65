package orgcore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// newUser stores a user with a verified address.
func newUser(t *testing.T, store *memory.Adapter, email string) string {
	t.Helper()
	verified := time.Now()
	u, err := store.CreateUser(context.Background(), adapter.User{Email: email, EmailVerified: &verified})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// newOrg returns a Service of cfg over store and the organization Acme it
// made, owned by owner.
func newOrg(t *testing.T, cfg orgcore.Config, store orgcore.Store, owner string) (*orgcore.Service, orgcore.Organization) {
	t.Helper()
	svc, err := orgcore.New(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	org, err := svc.Create(context.Background(), owner, "Acme", "")
	if err != nil {
		t.Fatal(err)
	}
	return svc, org
}

// TestAcceptCountsOrganizations: MaxOrganizationsPerUser counts the
// organizations a user joins, not only those they create.
func TestAcceptCountsOrganizations(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	svc, err := orgcore.New(orgcore.Config{MaxOrganizationsPerUser: 1}, store)
	if err != nil {
		t.Fatal(err)
	}
	eve, owner := newUser(t, store, "eve@example.com"), newUser(t, store, "owner@example.com")
	if _, err := svc.Create(ctx, eve, "Mine", ""); err != nil {
		t.Fatal(err)
	}
	other, err := svc.Create(ctx, owner, "Other", "")
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := svc.Invite(ctx, owner, other.ID, "eve@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Accept(ctx, token, eve, "eve@example.com"); !errors.Is(err, orgcore.ErrLimit) {
		t.Errorf("joining a second organization with MaxOrganizationsPerUser 1: %v, want ErrLimit", err)
	}
	if list, _ := svc.Organizations(ctx, eve); len(list) != 1 {
		t.Errorf("eve is in %d organizations, want 1", len(list))
	}
	if _, err := svc.Invitation(ctx, token); err != nil {
		t.Errorf("the refused invitation is gone: %v", err)
	}
}

// TestResendExpiredCountsMembers: an expired invitation no longer counts
// towards MaxMembers, so resending it must fit again.
func TestResendExpiredCountsMembers(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	now := time.Now()
	owner := newUser(t, store, "owner@example.com")
	svc, org := newOrg(t, orgcore.Config{MaxMembers: 2, Now: func() time.Time { return now }}, store, owner)
	first, _, err := svc.Invite(ctx, owner, org.ID, "a@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(orgcore.DefaultInvitationExpiry + time.Hour)
	second, _, err := svc.Invite(ctx, owner, org.ID, "b@example.com", "")
	if err != nil {
		t.Fatalf("inviting once the first invitation expired: %v", err)
	}
	if _, _, err := svc.Resend(ctx, owner, org.ID, first.ID); !errors.Is(err, orgcore.ErrLimit) {
		t.Errorf("resending the expired invitation with no room: %v, want ErrLimit", err)
	}
	if pending, _ := svc.Invitations(ctx, owner, org.ID); len(pending) != 1 {
		t.Errorf("%d pending invitations, want 1", len(pending))
	}
	if _, _, err := svc.Resend(ctx, owner, org.ID, second.ID); err != nil {
		t.Errorf("resending the pending invitation: %v", err)
	}
}

// TestDeleteRoleInvited: a custom role a pending invitation names is in
// use, as one a member holds: accepting would make a member of a role
// that does not exist.
func TestDeleteRoleInvited(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	owner, bob := newUser(t, store, "owner@example.com"), newUser(t, store, "bob@example.com")
	svc, org := newOrg(t, orgcore.Config{}, store, owner)
	if _, err := svc.CreateRole(ctx, owner, org.ID, "billing", []string{"member:invite"}); err != nil {
		t.Fatal(err)
	}
	_, token, err := svc.Invite(ctx, owner, org.ID, "bob@example.com", "billing")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteRole(ctx, owner, org.ID, "billing"); !errors.Is(err, orgcore.ErrRoleInUse) {
		t.Errorf("deleting a role a pending invitation names: %v, want ErrRoleInUse", err)
	}
	m, err := svc.Accept(ctx, token, bob, "bob@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := svc.Can(ctx, org.ID, m.UserID, orgcore.InviteMember); !ok || err != nil {
		t.Errorf("bob joined as %q and holds member:invite: %v, %v", m.Role, ok, err)
	}
}

// slowReads is a store whose lists take a millisecond: what a request
// reads is stale by the time it writes, as on a busy database, so that a
// limit counted from those reads would be overshot every time.
type slowReads struct{ *memory.Adapter }

func (s slowReads) Organizations(ctx context.Context, userID string) ([]orgcore.Organization, error) {
	defer time.Sleep(time.Millisecond)
	return s.Adapter.Organizations(ctx, userID)
}

func (s slowReads) Members(ctx context.Context, orgID string) ([]orgcore.Membership, error) {
	defer time.Sleep(time.Millisecond)
	return s.Adapter.Members(ctx, orgID)
}

func (s slowReads) Invitations(ctx context.Context, orgID string) ([]orgcore.Invitation, error) {
	defer time.Sleep(time.Millisecond)
	return s.Adapter.Invitations(ctx, orgID)
}

func (s slowReads) Roles(ctx context.Context, orgID string) ([]orgcore.Role, error) {
	defer time.Sleep(time.Millisecond)
	return s.Adapter.Roles(ctx, orgID)
}

// TestConcurrentLimits: concurrent requests do not overshoot MaxMembers,
// MaxRoles and MaxOrganizationsPerUser: each is checked in the store's
// write, not from what the Service read before.
func TestConcurrentLimits(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	owner := newUser(t, store, "owner@example.com")
	svc, org := newOrg(t, orgcore.Config{MaxMembers: 2, MaxRoles: 1, MaxOrganizationsPerUser: 1}, slowReads{store}, owner)
	race := func(what string, f func(i int) error) {
		t.Helper()
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if err := f(i); err != nil && !errors.Is(err, orgcore.ErrLimit) {
					t.Errorf("%s: %v", what, err)
				}
			}()
		}
		close(start)
		wg.Wait()
	}
	race("Invite", func(i int) error {
		_, _, err := svc.Invite(ctx, owner, org.ID, fmt.Sprintf("u%d@example.com", i), "")
		return err
	})
	if pending, _ := svc.Invitations(ctx, owner, org.ID); len(pending) != 1 {
		t.Errorf("MaxMembers 2, one member: %d pending invitations, want 1", len(pending))
	}
	race("CreateRole", func(i int) error {
		_, err := svc.CreateRole(ctx, owner, org.ID, fmt.Sprint("r", i), nil)
		return err
	})
	if roles, _ := store.Roles(ctx, org.ID); len(roles) != 1 {
		t.Errorf("MaxRoles 1: %d custom roles, want 1", len(roles))
	}
	eve := newUser(t, store, "eve@example.com")
	race("Create", func(i int) error {
		_, err := svc.Create(ctx, eve, fmt.Sprint("Org ", i), "")
		return err
	})
	if list, _ := svc.Organizations(ctx, eve); len(list) != 1 {
		t.Errorf("MaxOrganizationsPerUser 1: eve is in %d organizations, want 1", len(list))
	}
}
