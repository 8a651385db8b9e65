package sqlite

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/admin"
)

var _ admin.Store = (*Adapter)(nil)

// ListUsers returns one page of the users q selects (admin.Store).
func (a *Adapter) ListUsers(ctx context.Context, q admin.Query) (admin.Page, error) {
	return a.store.ListUsers(ctx, q)
}

// UserStatus returns the user's role, ban and revocation time
// (admin.Store).
func (a *Adapter) UserStatus(ctx context.Context, userID string) (admin.Status, error) {
	return a.store.UserStatus(ctx, userID)
}

// SetRole stores the user's global role (admin.Store).
func (a *Adapter) SetRole(ctx context.Context, userID string, role admin.Role) error {
	return a.store.SetRole(ctx, sqlstore.ExistsGuard, userID, role)
}

// BanUser stores the user's ban (admin.Store).
func (a *Adapter) BanUser(ctx context.Context, userID string, b admin.Ban) error {
	return a.store.BanUser(ctx, sqlstore.ExistsGuard, userID, b)
}

// UnbanUser removes the user's ban (admin.Store).
func (a *Adapter) UnbanUser(ctx context.Context, userID string) error {
	return a.store.UnbanUser(ctx, userID)
}

// RevokeSessions moves the user's RevokedBefore forward (admin.Store).
func (a *Adapter) RevokeSessions(ctx context.Context, userID string, at time.Time) error {
	return a.store.RevokeSessions(ctx, sqlstore.ExistsGuard, userID, at)
}

// PurgeUser deletes the user's verification tokens and everything
// DeleteUser deletes, in one transaction.
func (a *Adapter) PurgeUser(ctx context.Context, userID string) error {
	return a.store.InTx(ctx, func(tx sqlstore.Querier) error {
		if err := a.store.DeleteUserTokens(ctx, tx, userID); err != nil {
			return err
		}
		return deleteUser(ctx, tx, userID)
	})
}
