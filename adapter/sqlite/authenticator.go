package sqlite

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

// CreateAuthenticator stores a WebAuthn credential of an existing user.
func (a *Adapter) CreateAuthenticator(ctx context.Context, au adapter.Authenticator) (adapter.Authenticator, error) {
	// The user is checked in the statement itself, so that the adapter
	// does not depend on foreign keys being enforced.
	n, err := a.store.DB.Exec(ctx, `INSERT INTO gatehouse_authenticators (`+sqlstore.AuthenticatorColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`,
		append(sqlstore.AuthenticatorArgs(au), au.UserID)...)
	if err != nil {
		return adapter.Authenticator{}, dialect.Error("create authenticator", err)
	}
	if err := dialect.OneRow(n, nil, "create authenticator: user"); err != nil {
		return adapter.Authenticator{}, err
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
// one statement, so that of two concurrent updates to the same value one
// changes no row.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	return a.store.UpdateAuthenticatorCounter(ctx, credentialID, counter)
}
