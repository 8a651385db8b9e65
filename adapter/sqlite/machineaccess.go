package sqlite

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// API keys and signing keys: the statements are the ones shared with the
// other SQL adapter (sqlstore/machineaccess.go).

var (
	_ apikey.Store          = (*Adapter)(nil)
	_ servicetoken.KeyStore = (*Adapter)(nil)
)

// CreateAPIKey stores k; ErrNotFound when its user does not exist
// (apikey.Store).
func (a *Adapter) CreateAPIKey(ctx context.Context, k apikey.Key) error {
	return a.store.CreateAPIKey(ctx, k)
}

// APIKey returns the key with the id while its user exists (apikey.Store).
func (a *Adapter) APIKey(ctx context.Context, id string) (apikey.Key, error) {
	return a.store.APIKey(ctx, id)
}

// ListAPIKeys returns the user's keys, newest first (apikey.Store).
func (a *Adapter) ListAPIKeys(ctx context.Context, userID string) ([]apikey.Key, error) {
	return a.store.ListAPIKeys(ctx, userID)
}

// RevokeAPIKey marks the user's live key revoked (apikey.Store).
func (a *Adapter) RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error {
	return a.store.RevokeAPIKey(ctx, userID, id, at)
}

// RotateAPIKey gives the user's live key a new secret hash (apikey.Store).
func (a *Adapter) RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error {
	return a.store.RotateAPIKey(ctx, userID, id, hash, previousUntil)
}

// TouchAPIKey records a use of the key, at most once per
// apikey.TouchInterval (apikey.Store).
func (a *Adapter) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	return a.store.TouchAPIKey(ctx, id, at)
}

// SigningKeys returns the signing keys by generation
// (servicetoken.KeyStore).
func (a *Adapter) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	return a.store.SigningKeys(ctx)
}

// AddSigningKey stores k unless its generation exists
// (servicetoken.KeyStore).
func (a *Adapter) AddSigningKey(ctx context.Context, k servicetoken.SigningKey) (bool, error) {
	return a.store.AddSigningKey(ctx, k)
}

// DeleteSigningKeys removes the generations below below
// (servicetoken.KeyStore).
func (a *Adapter) DeleteSigningKeys(ctx context.Context, below int64) error {
	return a.store.DeleteSigningKeys(ctx, below)
}
