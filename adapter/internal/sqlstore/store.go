package sqlstore

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// Store runs on DB the statements that are the same for SQLite and
// PostgreSQL, storing and reading values as Dialect says. Its methods are
// those of the adapter interfaces that the adapters implement alike; an
// adapter's own methods run the statements that differ.
type Store struct {
	Dialect
	DB DB
}

// InsertAccount inserts the AccountColumns, as Dialect.AccountArgs
// returns them.
const InsertAccount = `INSERT INTO gatehouse_accounts (` + AccountColumns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// insertUser inserts the Dialect.UserArgs of a user.
const insertUser = `INSERT INTO gatehouse_users (id, name, email, email_verified, image)
	VALUES ($1, $2, NULLIF($3, ''), $4, $5)`

// OneRow is the error of a statement that changed n rows and returned
// err: d.Error for err, adapter.ErrNotFound when it changed no row.
func (d Dialect) OneRow(n int64, err error, what string) error {
	if err != nil {
		return d.Error(what, err)
	}
	if n == 0 {
		return d.NotFound(what)
	}
	return nil
}

// InTx runs fn in a transaction, which it commits when fn returns nil and
// rolls back otherwise.
func (s Store) InTx(ctx context.Context, fn func(tx Querier) error) error {
	tx, err := s.DB.Begin(ctx)
	if err != nil {
		return s.Error("begin", err)
	}
	defer tx.Rollback(ctx)
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return s.Error("commit", err)
	}
	return nil
}

// CreateUser stores u, assigning an ID when u.ID is empty.
func (s Store) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	if _, err := s.DB.Exec(ctx, insertUser, s.UserArgs(u)...); err != nil {
		return adapter.User{}, s.Error("insert user", err)
	}
	return u, nil
}

// CreateUserWithAccount stores u and its first account in one
// transaction.
func (s Store) CreateUserWithAccount(ctx context.Context, u adapter.User, acc account.Account) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	acc.UserID = u.ID
	accArgs, err := s.AccountArgs(acc)
	if err != nil {
		return adapter.User{}, err
	}
	err = s.InTx(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, insertUser, s.UserArgs(u)...); err != nil {
			return s.Error("insert user", err)
		}
		if _, err := tx.Exec(ctx, InsertAccount, accArgs...); err != nil {
			return s.Error("insert account", err)
		}
		return nil
	})
	if err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// GetUser returns the user with the given id.
func (s Store) GetUser(ctx context.Context, id string) (adapter.User, error) {
	row := s.DB.QueryRow(ctx, `SELECT `+UserColumns+` FROM gatehouse_users u WHERE u.id = $1`, id)
	return s.ScanUser(row, "get user")
}

// GetUserByEmail returns the user with the given e-mail address.
func (s Store) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	row := s.DB.QueryRow(ctx, `SELECT `+UserColumns+` FROM gatehouse_users u WHERE u.email = $1`, email)
	return s.ScanUser(row, "get user by e-mail")
}

// GetUserByAccount returns the user linked to the provider account.
func (s Store) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	row := s.DB.QueryRow(ctx, `SELECT `+UserColumns+`
		FROM gatehouse_accounts a JOIN gatehouse_users u ON u.id = a.user_id
		WHERE a.provider = $1 AND a.provider_account_id = $2`, provider, providerAccountID)
	return s.ScanUser(row, "get user by account")
}

// UpdateUser replaces the stored user with the same ID.
func (s Store) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_users
		SET name = $2, email = NULLIF($3, ''), email_verified = $4, image = $5
		WHERE id = $1`, s.UserArgs(u)...)
	if err := s.OneRow(n, err, "update user"); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// UnlinkAccount removes the provider account.
func (s Store) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return s.OneRow(n, err, "unlink account")
}

// GetAccount returns the provider account.
func (s Store) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	row := s.DB.QueryRow(ctx, `SELECT `+AccountColumns+` FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return s.ScanAccount(row)
}

// ListAccounts returns the user's accounts ordered by provider and
// provider account id.
func (s Store) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	rows, err := s.DB.Query(ctx, `SELECT `+AccountColumns+` FROM gatehouse_accounts
		WHERE user_id = $1 ORDER BY provider, provider_account_id`, userID)
	if err != nil {
		return nil, s.Error("list accounts", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list accounts", s.ScanAccount)
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID).
func (s Store) UpdateAccount(ctx context.Context, acc account.Account) error {
	args, err := s.TokenSetArgs(acc)
	if err != nil {
		return err
	}
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_accounts
		SET access_token = $3, id_token = $4, refresh_token = $5, expires_at = $6, expires_in = $7,
			scope = $8, token_type = $9, session_state = $10, extra = $11
		WHERE provider = $1 AND provider_account_id = $2`, args...)
	return s.OneRow(n, err, "update account")
}

// SessionAndUser is the query of GetSessionAndUser, which
// Dialect.ScanSessionAndUser reads.
const SessionAndUser = `SELECT s.token, s.user_id, s.expires, s.created_at, ` + UserColumns + `
	FROM gatehouse_sessions s JOIN gatehouse_users u ON u.id = s.user_id
	WHERE s.token = $1`

// UpdateSession sets the session's expiry, and its UpdatedAt to now (the
// adapter's clock, not the database's), and returns the session.
func (s Store) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	row := s.DB.QueryRow(ctx, `UPDATE gatehouse_sessions SET expires = $2, updated_at = $3 WHERE token = $1
		RETURNING `+SessionColumns, token, s.TimeArg(stored.Time(expires)), s.TimeArg(stored.Time(time.Now())))
	return s.ScanSession(row, "update session")
}

// DeleteSession removes the session and returns it as it was.
func (s Store) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	row := s.DB.QueryRow(ctx, `DELETE FROM gatehouse_sessions WHERE token = $1
		RETURNING `+SessionColumns, token)
	return s.ScanSession(row, "delete session")
}

// CreateVerificationToken stores t.
func (s Store) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	_, err := s.DB.Exec(ctx, `INSERT INTO gatehouse_verification_tokens (`+VerificationTokenColumns+`)
		VALUES ($1, $2, $3)`, t.Identifier, t.TokenHash, s.TimeArg(stored.Time(t.Expires)))
	if err != nil {
		return s.Error("create verification token", err)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (s Store) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	row := s.DB.QueryRow(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = $1 AND token_hash = $2
		RETURNING `+VerificationTokenColumns, identifier, tokenHash)
	return s.ScanVerificationToken(row)
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now.
func (s Store) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	cut := s.TimeArg(stored.Time(now))
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE expires < $1`, cut)
	if err != nil {
		return 0, 0, s.Error("delete expired sessions", err)
	}
	m, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_verification_tokens WHERE expires < $1`, cut)
	if err != nil {
		return int(n), 0, s.Error("delete expired tokens", err)
	}
	return int(n), int(m), nil
}

// DeleteUserSessions removes every session of the user userID.
func (s Store) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, s.Error("delete user sessions", err)
	}
	return int(n), nil
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user.
func (s Store) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if userID == "" && sid == "" {
		return 0, nil
	}
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions
		WHERE provider = $1 AND ($2 = '' OR user_id = $2) AND ($3 = '' OR sid = $3)`, provider, userID, sid)
	if err != nil {
		return 0, s.Error("delete provider sessions", err)
	}
	return int(n), nil
}

// ListSessions returns the user's sessions, latest expiry first.
func (s Store) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	rows, err := s.DB.Query(ctx, `SELECT `+SessionColumns+` FROM gatehouse_sessions
		WHERE user_id = $1 ORDER BY expires DESC, token`, userID)
	if err != nil {
		return nil, s.Error("list sessions", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list sessions", func(r Row) (adapter.Session, error) {
		return s.ScanSession(r, "list sessions")
	})
}

// GetAuthenticator returns the credential with the given id.
func (s Store) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	row := s.DB.QueryRow(ctx, `SELECT `+AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = $1`, credentialID)
	return s.ScanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id.
func (s Store) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := s.DB.Query(ctx, `SELECT `+AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = $1 ORDER BY credential_id`, userID)
	if err != nil {
		return nil, s.Error("list authenticators", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list authenticators", s.ScanAuthenticator)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement, so that of two concurrent updates to the same value one
// changes no row.
func (s Store) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := s.DB.QueryRow(ctx, `UPDATE gatehouse_authenticators SET counter = $1
		WHERE credential_id = $2 AND (counter < $1 OR (counter = 0 AND $1 = 0))
		RETURNING `+AuthenticatorColumns, int64(counter), credentialID)
	return s.UpdatedCounter(ctx, row, credentialID, counter, s.GetAuthenticator)
}

// PasswordHash returns the user's password hash.
func (s Store) PasswordHash(ctx context.Context, userID string) (string, error) {
	var hash string
	err := s.DB.QueryRow(ctx, `SELECT hash FROM gatehouse_passwords WHERE user_id = $1`, userID).Scan(&hash)
	if err != nil {
		return "", s.Error("get password", err)
	}
	return hash, nil
}

// DeletePasswordHash removes the user's password hash.
func (s Store) DeletePasswordHash(ctx context.Context, userID string) error {
	if _, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = $1`, userID); err != nil {
		return s.Error("delete password", err)
	}
	return nil
}

// TwoFactor returns the user's two-factor secret with its backup codes,
// in one query.
func (s Store) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	rows, err := s.DB.Query(ctx, `SELECT `+TwoFactorColumns+`
		FROM gatehouse_two_factor t LEFT JOIN gatehouse_two_factor_backup_codes c ON c.user_id = t.user_id
		WHERE t.user_id = $1 ORDER BY c.position`, userID)
	if err != nil {
		return twofactor.Secret{}, s.Error("get two-factor secret", err)
	}
	defer rows.Close()
	return s.ScanTwoFactor(rows, userID)
}

// AdvanceTOTPStep moves the user's last accepted TOTP step forward to
// step, in one conditional UPDATE, so that of two requests with the same
// code only one succeeds; twofactor.ErrReplayed when the step is not past
// the last.
func (s Store) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_two_factor SET last_step = $2
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	if err != nil {
		return s.Error("advance TOTP step", err)
	}
	if n == 1 {
		return nil
	}
	return s.Unchanged("TOTP step", userID, s.enrolled(ctx, userID), twofactor.ErrReplayed)
}

// ConsumeBackupCode removes hash from the user's backup codes in one
// DELETE, whose row count says whether it was there: of two requests with
// the same code only one succeeds.
func (s Store) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes
		WHERE user_id = $1 AND hash = $2`, userID, hash)
	if err != nil {
		return s.Error("consume backup code", err)
	}
	if n == 1 {
		return nil
	}
	return s.Unchanged("backup code", userID, s.enrolled(ctx, userID), twofactor.ErrInvalidCode)
}

// enrolled returns a function that reports whether the user has a
// two-factor secret.
func (s Store) enrolled(ctx context.Context, userID string) func() (bool, error) {
	return func() (bool, error) {
		var ok bool
		err := s.DB.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM gatehouse_two_factor WHERE user_id = $1)`, userID).Scan(&ok)
		return ok, err
	}
}

// PutBackupCodes replaces, in tx, the user's backup codes with hashes,
// keeping their order; each dialect inserts them its own way.
type PutBackupCodes func(ctx context.Context, tx Querier, userID string, hashes []string) error

// ReplaceBackupCodes replaces the user's backup code hashes with put, in
// one transaction that first updates (and so locks) the user's secret;
// twofactor.ErrNotEnrolled when the user has none.
func (s Store) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string, put PutBackupCodes) error {
	return s.InTx(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE gatehouse_two_factor SET updated_at = $2 WHERE user_id = $1`,
			userID, s.TimeArg(stored.Time(time.Now())))
		if err != nil {
			return s.Error("replace backup codes", err)
		}
		if n == 0 {
			return s.NotEnrolled(userID)
		}
		return put(ctx, tx, userID, hashes)
	})
}
