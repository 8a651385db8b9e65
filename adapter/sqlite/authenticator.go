package sqlite

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

var _ adapter.AuthenticatorAdapter = (*Adapter)(nil)

// CreateAuthenticator stores a WebAuthn credential of an existing user.
func (a *Adapter) CreateAuthenticator(ctx context.Context, au adapter.Authenticator) (adapter.Authenticator, error) {
	// The user is checked in the statement itself, so that the adapter
	// does not depend on foreign keys being enforced.
	res, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_authenticators (`+sqlstore.AuthenticatorColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`,
		append(sqlstore.AuthenticatorArgs(au), au.UserID)...)
	if err != nil {
		return adapter.Authenticator{}, dialect.Error("create authenticator", err)
	}
	if err := oneRow(res, "create authenticator: user"); err != nil {
		return adapter.Authenticator{}, err
	}
	return au, nil
}

// GetAuthenticator returns the credential with the given id.
func (a *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+sqlstore.AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = ?`, credentialID)
	return dialect.ScanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+sqlstore.AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = ? ORDER BY credential_id`, userID)
	if err != nil {
		return nil, dialect.Error("list authenticators", err)
	}
	defer rows.Close()
	return sqlstore.ScanAll(dialect, rows, "list authenticators", dialect.ScanAuthenticator)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement, so that of two concurrent updates to the same value one
// changes no row.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := a.db.QueryRowContext(ctx, `UPDATE gatehouse_authenticators SET counter = ?1
		WHERE credential_id = ?2 AND (counter < ?1 OR (counter = 0 AND ?1 = 0))
		RETURNING `+sqlstore.AuthenticatorColumns, int64(counter), credentialID)
	return dialect.UpdatedCounter(ctx, row, credentialID, counter, a.GetAuthenticator)
}
