package redisstore

import (
	"context"
	"time"

	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// API keys and signing keys belong with the users, in the primary: the
// store hands every call to it, as it does password hashes (secrets.go),
// and answers ErrUnsupported over a primary without them. A key is read
// from the primary on every request, so a revocation is seen by every
// instance at once, as a revoked session is.

var (
	_ apikey.Store          = (*store)(nil)
	_ servicetoken.KeyStore = (*store)(nil)
)

// CreateAPIKey stores k in the primary (apikey.Store), which counts the
// user's live keys and inserts in one step.
func (s *store) CreateAPIKey(ctx context.Context, k apikey.Key, max int) error {
	return do(s, func(p apikey.Store) error { return p.CreateAPIKey(ctx, k, max) })
}

// APIKey reads the key from the primary (apikey.Store).
func (s *store) APIKey(ctx context.Context, id string) (apikey.Key, error) {
	return call(s, func(p apikey.Store) (apikey.Key, error) { return p.APIKey(ctx, id) })
}

// ListAPIKeys lists the user's keys from the primary (apikey.Store).
func (s *store) ListAPIKeys(ctx context.Context, userID string) ([]apikey.Key, error) {
	return call(s, func(p apikey.Store) ([]apikey.Key, error) { return p.ListAPIKeys(ctx, userID) })
}

// RevokeAPIKey revokes the key in the primary (apikey.Store).
func (s *store) RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error {
	return do(s, func(p apikey.Store) error { return p.RevokeAPIKey(ctx, userID, id, at) })
}

// RotateAPIKey rotates the key's secret in the primary (apikey.Store).
func (s *store) RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error {
	return do(s, func(p apikey.Store) error { return p.RotateAPIKey(ctx, userID, id, hash, previousUntil) })
}

// TouchAPIKey records a use of the key in the primary (apikey.Store).
func (s *store) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	return do(s, func(p apikey.Store) error { return p.TouchAPIKey(ctx, id, at) })
}

// SigningKeys reads the signing keys from the primary
// (servicetoken.KeyStore).
func (s *store) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	return call(s, func(p servicetoken.KeyStore) ([]servicetoken.SigningKey, error) { return p.SigningKeys(ctx) })
}

// AddSigningKey adds a signing key in the primary (servicetoken.KeyStore).
func (s *store) AddSigningKey(ctx context.Context, k servicetoken.SigningKey) (bool, error) {
	return call(s, func(p servicetoken.KeyStore) (bool, error) { return p.AddSigningKey(ctx, k) })
}

// DeleteSigningKeys removes old signing keys from the primary
// (servicetoken.KeyStore).
func (s *store) DeleteSigningKeys(ctx context.Context, below int64) error {
	return do(s, func(p servicetoken.KeyStore) error { return p.DeleteSigningKeys(ctx, below) })
}
