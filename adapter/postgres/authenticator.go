package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var _ adapter.AuthenticatorAdapter = (*Adapter)(nil)

// authenticatorColumns are the columns scanAuthenticator reads, in order.
const authenticatorColumns = `credential_id, user_id, provider_account_id, credential_public_key,
	counter, credential_device_type, credential_backed_up, transports`

// CreateAuthenticator stores a WebAuthn credential of an existing user
// (the foreign key refuses an unknown user: ErrNotFound).
func (a *Adapter) CreateAuthenticator(ctx context.Context, au adapter.Authenticator) (adapter.Authenticator, error) {
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_authenticators (`+authenticatorColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		au.CredentialID, au.UserID, au.ProviderAccountID, au.CredentialPublicKey,
		int64(au.Counter), au.CredentialDeviceType, au.CredentialBackedUp, au.Transports)
	if err != nil {
		return adapter.Authenticator{}, dbError("create authenticator", err)
	}
	return au, nil
}

// GetAuthenticator returns the credential with the given id.
func (a *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+authenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = $1`, credentialID)
	return scanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := a.pool.Query(ctx, `SELECT `+authenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = $1 ORDER BY credential_id`, userID)
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
// one statement: the row lock makes a second concurrent update to the same
// value see the first one's counter and change nothing.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := a.pool.QueryRow(ctx, `UPDATE gatehouse_authenticators SET counter = $1
		WHERE credential_id = $2 AND (counter < $1 OR (counter = 0 AND $1 = 0))
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
	return adapter.Authenticator{}, fmt.Errorf("postgres: authenticator %q: counter %d: %w", credentialID, counter, adapter.ErrCounterRegression)
}

// scanAuthenticator reads the authenticatorColumns of one row.
func scanAuthenticator(row pgx.Row) (adapter.Authenticator, error) {
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
