package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var _ adapter.AuthenticatorAdapter = (*Adapter)(nil)

// authenticatorColumns are the columns scanAuthenticator reads, in order.
const authenticatorColumns = `credential_id, user_id, provider_account_id, credential_public_key,
	counter, credential_device_type, credential_backed_up, transports`

// CreateAuthenticator stores a WebAuthn credential of an existing user.
func (a *Adapter) CreateAuthenticator(ctx context.Context, au adapter.Authenticator) (adapter.Authenticator, error) {
	// The user is checked in the statement itself, so that the adapter
	// does not depend on foreign keys being enforced.
	res, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_authenticators (`+authenticatorColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`,
		au.CredentialID, au.UserID, au.ProviderAccountID, au.CredentialPublicKey,
		int64(au.Counter), au.CredentialDeviceType, au.CredentialBackedUp, au.Transports, au.UserID)
	if err != nil {
		return adapter.Authenticator{}, dbError("create authenticator", err)
	}
	if err := oneRow(res, "create authenticator: user"); err != nil {
		return adapter.Authenticator{}, err
	}
	return au, nil
}

// GetAuthenticator returns the credential with the given id.
func (a *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+authenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = ?`, credentialID)
	return scanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+authenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = ? ORDER BY credential_id`, userID)
	if err != nil {
		return nil, dbError("list authenticators", err)
	}
	defer rows.Close()
	out := []adapter.Authenticator{}
	for rows.Next() {
		au, err := scanAuthenticator(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, au)
	}
	if err := rows.Err(); err != nil {
		return nil, dbError("list authenticators", err)
	}
	return out, nil
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement, so that of two concurrent updates to the same value one
// changes no row.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := a.db.QueryRowContext(ctx, `UPDATE gatehouse_authenticators SET counter = ?1
		WHERE credential_id = ?2 AND (counter < ?1 OR (counter = 0 AND ?1 = 0))
		RETURNING `+authenticatorColumns, int64(counter), credentialID)
	au, err := scanAuthenticator(row)
	if err == nil {
		return au, nil
	} else if !errors.Is(err, adapter.ErrNotFound) {
		return adapter.Authenticator{}, err
	}
	// No row: the credential is unknown, or the counter did not advance.
	if _, gerr := a.GetAuthenticator(ctx, credentialID); gerr != nil {
		return adapter.Authenticator{}, gerr
	}
	return adapter.Authenticator{}, fmt.Errorf("sqlite: authenticator %q: counter %d: %w", credentialID, counter, adapter.ErrCounterRegression)
}

// scanAuthenticator reads the authenticatorColumns of one row.
func scanAuthenticator(row scanner) (adapter.Authenticator, error) {
	var (
		au      adapter.Authenticator
		counter int64
	)
	err := row.Scan(&au.CredentialID, &au.UserID, &au.ProviderAccountID, &au.CredentialPublicKey,
		&counter, &au.CredentialDeviceType, &au.CredentialBackedUp, &au.Transports)
	if err != nil {
		return adapter.Authenticator{}, dbError("get authenticator", err)
	}
	au.Counter = uint32(counter)
	return au, nil
}
