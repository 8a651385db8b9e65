package memory

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// CreateAuthenticator stores a WebAuthn credential of an existing user.
func (m *Adapter) CreateAuthenticator(ctx context.Context, a adapter.Authenticator) (adapter.Authenticator, error) {
	if err := ctx.Err(); err != nil {
		return adapter.Authenticator{}, err
	}
	a = copyAuthenticator(a)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.users[a.UserID]; !ok {
		return adapter.Authenticator{}, fmt.Errorf("memory: user %q: %w", a.UserID, adapter.ErrNotFound)
	}
	if _, ok := m.authenticators[a.CredentialID]; ok {
		return adapter.Authenticator{}, fmt.Errorf("memory: authenticator %q: %w", a.CredentialID, adapter.ErrConflict)
	}
	m.authenticators[a.CredentialID] = a
	return copyAuthenticator(a), nil
}

// GetAuthenticator returns the credential with the given id.
func (m *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	return lockedValue(ctx, m, func() (adapter.Authenticator, error) {
		a, err := m.authenticator(credentialID)
		return copyAuthenticator(a), err
	})
}

// authenticator returns the stored credential with the given id, or
// adapter.ErrNotFound. m.mu must be held.
func (m *Adapter) authenticator(credentialID string) (adapter.Authenticator, error) {
	a, ok := m.authenticators[credentialID]
	if !ok {
		return adapter.Authenticator{}, fmt.Errorf("memory: authenticator %q: %w", credentialID, adapter.ErrNotFound)
	}
	return a, nil
}

// ListAuthenticatorsByUserID returns the user's credentials, ordered by
// credential id.
func (m *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	return lockedValue(ctx, m, func() ([]adapter.Authenticator, error) {
		return collect(m.authenticators, func(_ string, a adapter.Authenticator) bool { return a.UserID == userID }, copyAuthenticator,
			func(x, y adapter.Authenticator) int { return strings.Compare(x.CredentialID, y.CredentialID) }), nil
	})
}

// UpdateAuthenticatorCounter sets the sign counter when it advances.
func (m *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	return lockedValue(ctx, m, func() (adapter.Authenticator, error) {
		a, err := m.authenticator(credentialID)
		if err != nil {
			return adapter.Authenticator{}, err
		}
		if !adapter.CounterAdvances(a.Counter, counter) {
			return adapter.Authenticator{}, fmt.Errorf("memory: authenticator %q: stored %d, got %d: %w", credentialID, a.Counter, counter, adapter.ErrCounterRegression)
		}
		a.Counter = counter
		m.authenticators[credentialID] = a
		return copyAuthenticator(a), nil
	})
}

func copyAuthenticator(a adapter.Authenticator) adapter.Authenticator {
	a.CredentialPublicKey = bytes.Clone(a.CredentialPublicKey)
	return a
}
