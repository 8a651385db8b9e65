package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// machineAccess is the adapter's API keys and signing keys, guarded by
// the Adapter's mu. Its maps are made on first use.
type machineAccess struct {
	keys    map[string]apikey.Key // by id
	signing map[int64]servicetoken.SigningKey
}

// deleteUser forgets the user's keys. m.mu must be held.
func (ma *machineAccess) deleteUser(userID string) {
	for id, k := range ma.keys {
		if k.UserID == userID {
			delete(ma.keys, id)
		}
	}
}

// copyKey returns k with its own Permissions and times as stored.
func copyKey(k apikey.Key) apikey.Key {
	k.Permissions = slices.Clone(k.Permissions)
	for _, t := range []*time.Time{&k.PreviousUntil, &k.Expires, &k.CreatedAt, &k.LastUsedAt, &k.RevokedAt} {
		if !t.IsZero() {
			*t = stored.Time(*t)
		}
	}
	return k
}

// CreateAPIKey stores k unless its user holds max live keys (apikey.Store):
// the count and the insert run under m.mu, so they are one step.
func (m *Adapter) CreateAPIKey(ctx context.Context, k apikey.Key, max int) error {
	return m.locked(ctx, func() error {
		if _, ok := m.users[k.UserID]; !ok {
			return fmt.Errorf("memory: API key: user %q: %w", k.UserID, adapter.ErrNotFound)
		}
		if _, ok := m.machine.keys[k.ID]; ok {
			return fmt.Errorf("memory: API key: %w", adapter.ErrConflict)
		}
		if max > 0 {
			live := 0
			for _, x := range m.machine.keys {
				if x.UserID == k.UserID && x.Live(k.CreatedAt) {
					live++
				}
			}
			if live >= max {
				return apikey.ErrTooManyKeys
			}
		}
		if m.machine.keys == nil {
			m.machine.keys = map[string]apikey.Key{}
		}
		m.machine.keys[k.ID] = copyKey(k)
		return nil
	})
}

// APIKey returns the key with the id while its user exists (apikey.Store).
func (m *Adapter) APIKey(ctx context.Context, id string) (apikey.Key, error) {
	return lockedValue(ctx, m, func() (apikey.Key, error) {
		k, ok := m.machine.keys[id]
		if _, user := m.users[k.UserID]; !ok || !user {
			return apikey.Key{}, fmt.Errorf("memory: API key: %w", adapter.ErrNotFound)
		}
		return copyKey(k), nil
	})
}

// ListAPIKeys returns the user's keys, newest first (apikey.Store).
func (m *Adapter) ListAPIKeys(ctx context.Context, userID string) ([]apikey.Key, error) {
	return lockedValue(ctx, m, func() ([]apikey.Key, error) {
		return collect(m.machine.keys, func(_ string, k apikey.Key) bool { return k.UserID == userID }, copyKey,
			func(a, b apikey.Key) int { return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(a.ID, b.ID)) }), nil
	})
}

// changeLiveKey applies change to userID's key id, unless it is revoked,
// or expired when expiredToo is false (adapter.ErrNotFound), holding m.mu.
func (m *Adapter) changeLiveKey(ctx context.Context, userID, id string, expiredToo bool, change func(k *apikey.Key)) error {
	return m.locked(ctx, func() error {
		k, ok := m.machine.keys[id]
		expired := !k.Expires.IsZero() && !time.Now().Before(k.Expires)
		if !ok || k.UserID != userID || !k.RevokedAt.IsZero() || (expired && !expiredToo) {
			return fmt.Errorf("memory: API key: %w", adapter.ErrNotFound)
		}
		change(&k)
		m.machine.keys[id] = k
		return nil
	})
}

// RevokeAPIKey marks the user's key revoked (apikey.Store).
func (m *Adapter) RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error {
	return m.changeLiveKey(ctx, userID, id, true, func(k *apikey.Key) { k.RevokedAt = stored.Time(at) })
}

// RotateAPIKey gives the user's live key a new secret hash (apikey.Store):
// not an expired one, whose new secret would be shown once and never work.
func (m *Adapter) RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error {
	return m.changeLiveKey(ctx, userID, id, false, func(k *apikey.Key) {
		k.PreviousHash, k.PreviousUntil, k.Hash = k.Hash, stored.Time(previousUntil), hash
		if !previousUntil.After(time.Now()) {
			k.PreviousHash, k.PreviousUntil = "", time.Time{}
		}
	})
}

// TouchAPIKey records a use of the key, at most once per
// apikey.TouchInterval (apikey.Store).
func (m *Adapter) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	return m.locked(ctx, func() error {
		k, ok := m.machine.keys[id]
		if !ok {
			return fmt.Errorf("memory: API key: %w", adapter.ErrNotFound)
		}
		if k.LastUsedAt.Before(at.Add(-apikey.TouchInterval)) {
			k.LastUsedAt = stored.Time(at)
			m.machine.keys[id] = k
		}
		return nil
	})
}

// SigningKeys returns the stored signing keys by generation
// (servicetoken.KeyStore).
func (m *Adapter) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	return lockedValue(ctx, m, func() ([]servicetoken.SigningKey, error) {
		return collect(m.machine.signing, func(int64, servicetoken.SigningKey) bool { return true }, nil,
			func(a, b servicetoken.SigningKey) int { return cmp.Compare(a.Generation, b.Generation) }), nil
	})
}

// AddSigningKey stores k unless its generation exists
// (servicetoken.KeyStore).
func (m *Adapter) AddSigningKey(ctx context.Context, k servicetoken.SigningKey) (bool, error) {
	return lockedValue(ctx, m, func() (bool, error) {
		if _, ok := m.machine.signing[k.Generation]; ok {
			return false, nil
		}
		if m.machine.signing == nil {
			m.machine.signing = map[int64]servicetoken.SigningKey{}
		}
		k.NotBefore, k.CreatedAt = stored.Time(k.NotBefore), stored.Time(k.CreatedAt)
		m.machine.signing[k.Generation] = k
		return true, nil
	})
}

// DeleteSigningKeys removes the generations below below
// (servicetoken.KeyStore).
func (m *Adapter) DeleteSigningKeys(ctx context.Context, below int64) error {
	return m.locked(ctx, func() error {
		for g := range m.machine.signing {
			if g < below {
				delete(m.machine.signing, g)
			}
		}
		return nil
	})
}
