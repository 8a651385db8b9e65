package postgres

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

var _ adapter.AuthenticatorAdapter = (*Adapter)(nil)

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
	row := a.pool.QueryRow(ctx, `SELECT `+sqlstore.AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = $1`, credentialID)
	return dialect.ScanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := a.pool.Query(ctx, `SELECT `+sqlstore.AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = $1 ORDER BY credential_id`, userID)
	if err != nil {
		return nil, dialect.Error("list authenticators", err)
	}
	defer rows.Close()
	return sqlstore.ScanAll(dialect, rows, "list authenticators", dialect.ScanAuthenticator)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement: the row lock makes a second concurrent update to the same
// value see the first one's counter and change nothing.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := a.pool.QueryRow(ctx, `UPDATE gatehouse_authenticators SET counter = $1
		WHERE credential_id = $2 AND (counter < $1 OR (counter = 0 AND $1 = 0))
		RETURNING `+sqlstore.AuthenticatorColumns, int64(counter), credentialID)
	return dialect.UpdatedCounter(ctx, row, credentialID, counter, a.GetAuthenticator)
}
