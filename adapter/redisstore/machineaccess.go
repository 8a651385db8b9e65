package redisstore

import (
	"context"
	"fmt"
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

// apiKeys returns the primary as an apikey.Store, or ErrUnsupported.
func (s *store) apiKeys() (apikey.Store, error) {
	if ks, ok := s.Adapter.(apikey.Store); ok {
		return ks, nil
	}
	return nil, fmt.Errorf("%w: apikey.Store", ErrUnsupported)
}

// signingKeys returns the primary as a servicetoken.KeyStore, or
// ErrUnsupported.
func (s *store) signingKeys() (servicetoken.KeyStore, error) {
	if ks, ok := s.Adapter.(servicetoken.KeyStore); ok {
		return ks, nil
	}
	return nil, fmt.Errorf("%w: servicetoken.KeyStore", ErrUnsupported)
}

// CreateAPIKey stores k in the primary (apikey.Store), which counts the
// user's live keys and inserts in one step.
func (s *store) CreateAPIKey(ctx context.Context, k apikey.Key, max int) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	return ks.CreateAPIKey(ctx, k, max)
}

// APIKey reads the key from the primary (apikey.Store).
func (s *store) APIKey(ctx context.Context, id string) (apikey.Key, error) {
	ks, err := s.apiKeys()
	if err != nil {
		return apikey.Key{}, err
	}
	return ks.APIKey(ctx, id)
}

// ListAPIKeys lists the user's keys from the primary (apikey.Store).
func (s *store) ListAPIKeys(ctx context.Context, userID string) ([]apikey.Key, error) {
	ks, err := s.apiKeys()
	if err != nil {
		return nil, err
	}
	return ks.ListAPIKeys(ctx, userID)
}

// RevokeAPIKey revokes the key in the primary (apikey.Store).
func (s *store) RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	return ks.RevokeAPIKey(ctx, userID, id, at)
}

// RotateAPIKey rotates the key's secret in the primary (apikey.Store).
func (s *store) RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	return ks.RotateAPIKey(ctx, userID, id, hash, previousUntil)
}

// TouchAPIKey records a use of the key in the primary (apikey.Store).
func (s *store) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	ks, err := s.apiKeys()
	if err != nil {
		return err
	}
	return ks.TouchAPIKey(ctx, id, at)
}

// SigningKeys reads the signing keys from the primary
// (servicetoken.KeyStore).
func (s *store) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	ks, err := s.signingKeys()
	if err != nil {
		return nil, err
	}
	return ks.SigningKeys(ctx)
}

// AddSigningKey adds a signing key in the primary (servicetoken.KeyStore).
func (s *store) AddSigningKey(ctx context.Context, k servicetoken.SigningKey) (bool, error) {
	ks, err := s.signingKeys()
	if err != nil {
		return false, err
	}
	return ks.AddSigningKey(ctx, k)
}

// DeleteSigningKeys removes old signing keys from the primary
// (servicetoken.KeyStore).
func (s *store) DeleteSigningKeys(ctx context.Context, below int64) error {
	ks, err := s.signingKeys()
	if err != nil {
		return err
	}
	return ks.DeleteSigningKeys(ctx, below)
}
