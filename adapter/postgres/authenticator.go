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
