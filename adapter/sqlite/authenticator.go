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
