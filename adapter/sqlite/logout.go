package sqlite

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// DeleteUserSessions removes every session of the user userID.
func (a *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	return a.store.DeleteUserSessions(ctx, userID)
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (a *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	return a.store.DeleteProviderSessions(ctx, provider, userID, sid)
}

// ListSessions returns the user's sessions, latest expiry first
// (adapter.SessionLister).
func (a *Adapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	return a.store.ListSessions(ctx, userID)
}
