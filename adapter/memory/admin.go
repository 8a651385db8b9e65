package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// ListUsers returns one page of the users q selects, in the order of
// their ids.
func (m *Adapter) ListUsers(ctx context.Context, q admin.Query) (admin.Page, error) {
	return lockedValue(ctx, m, func() (admin.Page, error) {
		now := q.Now
		if now.IsZero() {
			now = time.Now()
		}
		search := stored.LowerASCII(q.Search)
		var out []admin.Listed
		for id, u := range m.users {
			if id <= q.After && q.After != "" {
				continue
			}
			st := m.status(id)
			switch {
			case search != "" && !strings.Contains(stored.LowerASCII(u.Email), search) && !strings.Contains(stored.LowerASCII(u.Name), search):
				continue
			case q.Role != "" && st.Role != q.Role:
				continue
			case q.BannedOnly && !st.Ban.Active(now):
				continue
			}
			out = append(out, admin.Listed{User: copyUser(u), Status: st})
		}
		slices.SortFunc(out, func(a, b admin.Listed) int { return strings.Compare(a.User.ID, b.User.ID) })
		limit := max(q.Limit, 1)
		page := admin.Page{Users: out}
		if len(out) > limit {
			page.Users, page.Next = out[:limit], out[limit-1].User.ID
		}
		return page, nil
	})
}

// UserStatus returns the user's role, ban and revocation time.
func (m *Adapter) UserStatus(ctx context.Context, userID string) (admin.Status, error) {
	return lockedValue(ctx, m, func() (admin.Status, error) {
		if _, ok := m.users[userID]; !ok {
			return admin.Status{}, fmt.Errorf("memory: user %q: %w", userID, adapter.ErrNotFound)
		}
		return m.status(userID), nil
	})
}

// status returns a copy of the user's Status. m.mu must be held.
func (m *Adapter) status(userID string) admin.Status {
	st, ok := m.admin[userID]
	if !ok || st.Role == "" {
		st.Role = admin.RoleUser
	}
	if st.Ban != nil {
		b := *st.Ban
		st.Ban = &b
	}
	return st
}

// update changes the stored Status of an existing user with fn. m.mu must
// not be held.
func (m *Adapter) update(ctx context.Context, userID string, fn func(st *admin.Status)) error {
	return m.locked(ctx, func() error {
		if _, ok := m.users[userID]; !ok {
			return fmt.Errorf("memory: user %q: %w", userID, adapter.ErrNotFound)
		}
		st := m.status(userID)
		fn(&st)
		if m.admin == nil {
			m.admin = make(map[string]admin.Status)
		}
		m.admin[userID] = st
		return nil
	})
}

// SetUserRole stores the user's global role.
func (m *Adapter) SetUserRole(ctx context.Context, userID string, role admin.Role) error {
	if !role.Valid() {
		return fmt.Errorf("memory: %q: %w", role, admin.ErrInvalidRole)
	}
	return m.update(ctx, userID, func(st *admin.Status) { st.Role = role })
}

// BanUser stores the user's ban and revokes their sessions from b.At.
func (m *Adapter) BanUser(ctx context.Context, userID string, b admin.Ban) error {
	revoked := admin.RevocationTime(b.At)
	b.At, b.Expires = stored.Time(b.At), stored.Time(b.Expires)
	if b.Expires.Equal(stored.Time(time.Time{})) {
		b.Expires = time.Time{}
	}
	return m.update(ctx, userID, func(st *admin.Status) {
		st.Ban = &b
		st.RevokedBefore = later(st.RevokedBefore, revoked)
	})
}

// UnbanUser removes the user's ban.
func (m *Adapter) UnbanUser(ctx context.Context, userID string) error {
	err := m.update(ctx, userID, func(st *admin.Status) { st.Ban = nil })
	if err != nil && ctx.Err() == nil {
		return nil // no user, no ban
	}
	return err
}

// RevokeSessions moves the user's RevokedBefore forward to at.
func (m *Adapter) RevokeSessions(ctx context.Context, userID string, at time.Time) error {
	return m.update(ctx, userID, func(st *admin.Status) {
		st.RevokedBefore = later(st.RevokedBefore, admin.RevocationTime(at))
	})
}

// PurgeUser deletes the user, everything DeleteUser deletes, and the
// verification tokens of their address.
func (m *Adapter) PurgeUser(ctx context.Context, userID string) error {
	return m.locked(ctx, func() error {
		return m.purgeLocked(ctx, userID)
	})
}

// PurgeUnlessLastOwner is PurgeUser, refused with
// organization.ErrLastOwner when the user is the only owner of an
// organization: both under the adapter's mutex, which SetRole and
// RemoveMembership hold too (admin.OwnerKeeper).
func (m *Adapter) PurgeUnlessLastOwner(ctx context.Context, userID string) error {
	return m.locked(ctx, func() error {
		if _, ok := m.users[userID]; !ok {
			return fmt.Errorf("memory: user %q: %w", userID, adapter.ErrNotFound)
		}
		if m.orgs != nil {
			for k := range m.orgs.members {
				if k.user == userID && m.lastOwner(k) {
					return fmt.Errorf("memory: organization %q: %w", k.org, organization.ErrLastOwner)
				}
			}
		}
		return m.purgeLocked(ctx, userID)
	})
}

// purgeLocked is PurgeUser with m.mu held.
func (m *Adapter) purgeLocked(ctx context.Context, userID string) error {
	u, ok := m.users[userID]
	if ok && u.Email != "" {
		for k := range m.tokens {
			if k.identifier == u.Email {
				delete(m.tokens, k)
			}
		}
	}
	return m.deleteUserLocked(ctx, userID)
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
