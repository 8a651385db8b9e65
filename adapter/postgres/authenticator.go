package postgres

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

// CreateAuthenticator stores a WebAuthn credential of an existing user
// (the foreign key refuses an unknown user: ErrNotFound).
func (a *Adapter) CreateAuthenticator(ctx context.Context, au adapter.Authenticator) (adapter.Authenticator, error) {
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_authenticators (`+sqlstore.AuthenticatorColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, sqlstore.AuthenticatorArgs(au)...)
	if err != nil {
		return adapter.Authenticator{}, dialect.Error("create authenticator", err)
	}
	return au, nil
}

// GetAuthenticator returns the credential with the given id.
func (a *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	return a.store.GetAuthenticator(ctx, credentialID)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	return a.store.ListAuthenticatorsByUserID(ctx, userID)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement: the row lock makes a second concurrent update to the same
// value see the first one's counter and change nothing.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	return a.store.UpdateAuthenticatorCounter(ctx, credentialID, counter)
}
