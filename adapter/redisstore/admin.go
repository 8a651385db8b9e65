package redisstore

import (
	"context"
	"strings"
	"time"

	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
)

// Roles, bans and revocations belong with the user, in the primary: the
// store hands every admin.Store call to it (ErrUnsupported when the
// primary is not an admin.Store; ask Supports[admin.Store] first).

var (
	_ admin.Store       = (*store)(nil)
	_ admin.OwnerKeeper = (*store)(nil)
)

// ListUsers lists users from the primary (admin.Store).
func (s *store) ListUsers(ctx context.Context, q admin.Query) (admin.Page, error) {
	return call(s, func(p admin.Store) (admin.Page, error) { return p.ListUsers(ctx, q) })
}

// UserStatus reads the user's status from the primary (admin.Store).
func (s *store) UserStatus(ctx context.Context, userID string) (admin.Status, error) {
	return call(s, func(p admin.Store) (admin.Status, error) { return p.UserStatus(ctx, userID) })
}

// SetUserRole stores the user's role in the primary (admin.Store).
func (s *store) SetUserRole(ctx context.Context, userID string, role admin.Role) error {
	return do(s, func(p admin.Store) error { return p.SetUserRole(ctx, userID, role) })
}

// BanUser stores the user's ban in the primary (admin.Store); the caller
// ends the sessions (DeleteUserSessions, in Redis).
func (s *store) BanUser(ctx context.Context, userID string, b admin.Ban) error {
	return do(s, func(p admin.Store) error { return p.BanUser(ctx, userID, b) })
}

// UnbanUser removes the user's ban in the primary (admin.Store).
func (s *store) UnbanUser(ctx context.Context, userID string) error {
	return do(s, func(p admin.Store) error { return p.UnbanUser(ctx, userID) })
}

// RevokeSessions moves the user's RevokedBefore in the primary
// (admin.Store).
func (s *store) RevokeSessions(ctx context.Context, userID string, at time.Time) error {
	return do(s, func(p admin.Store) error { return p.RevokeSessions(ctx, userID, at) })
}

// PurgeUser deletes the user from the primary, then their sessions and
// the verification tokens of their address from Redis (admin.Store).
func (s *store) PurgeUser(ctx context.Context, userID string) error {
	as, err := primary[admin.Store](s)
	if err != nil {
		return err
	}
	return s.purge(ctx, userID, as.PurgeUser)
}

// PurgeUnlessLastOwner deletes the user from the primary unless they are
// the only owner of an organization, which the primary checks in the
// same step, then their sessions and tokens from Redis as PurgeUser does
// (admin.OwnerKeeper).
func (s *store) PurgeUnlessLastOwner(ctx context.Context, userID string) error {
	ok, err := primary[admin.OwnerKeeper](s)
	if err != nil {
		return err
	}
	return s.purge(ctx, userID, ok.PurgeUnlessLastOwner)
}

// purge deletes the user from the primary with del, then their sessions
// and the verification tokens of their address from Redis.
func (s *store) purge(ctx context.Context, userID string, del func(ctx context.Context, userID string) error) error {
	u, err := s.Adapter.GetUser(ctx, userID)
	if err != nil {
		return err
	}
	if err := del(ctx, userID); err != nil {
		return err
	}
	if _, err := s.DeleteUserSessions(ctx, userID); err != nil {
		return err
	}
	if u.Email == "" {
		return nil
	}
	// The tokens of one address share a key prefix (tokenKey): a SCAN
	// with that prefix, its glob characters escaped, finds them.
	match := globEscape.Replace(s.tokenKey(u.Email, "")) + "*"
	iter := s.rdb.Scan(ctx, 0, match, 100).Iterator()
	for iter.Next(ctx) {
		if err := s.rdb.Del(ctx, iter.Val()).Err(); err != nil {
			return err
		}
	}
	return iter.Err()
}

// globEscape escapes the characters Redis's MATCH patterns give a meaning.
var globEscape = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`)
