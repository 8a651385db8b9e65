package sqlstore

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// Store runs on DB the statements that are the same for SQLite and
// PostgreSQL, storing and reading values as Dialect says. Core,
// MachineAccess, Organizations and Admin give an adapter the methods of
// the interfaces it implements alike on a Store; an adapter's own methods
// run the statements that differ.
type Store struct {
	Dialect
	DB DB
}

// Core is the part of adapter.Adapter, adapter.AuthenticatorAdapter,
// adapter.PasswordStore, the session revokers and twofactor.Store that
// both adapters run alike, on a Store, for an adapter to embed. Its
// fields are unexported so that embedding it adds only those methods.
type Core struct {
	s   Store
	put PutBackupCodes
}

// NewCore returns the Core on s that inserts backup codes with put.
func NewCore(s Store, put PutBackupCodes) Core {
	return Core{s: s, put: put}
}

// Shared is everything an adapter runs alike on a Store: Core,
// MachineAccess, Admin and Organizations, embedded under unexported names
// so that an adapter embedding Shared gains their methods and nothing
// else.
type Shared struct {
	core
	machineAccess
	adminStore
	organizations
}

type (
	core          = Core
	machineAccess = MachineAccess
	adminStore    = Admin
	organizations = Organizations
)

// NewShared returns the Shared on s of an adapter that inserts backup
// codes with put, and whose Admin refuses an unknown user with guard and
// deletes users with deleteUser (see NewAdmin).
func NewShared(s Store, put PutBackupCodes, guard Guard, deleteUser func(ctx context.Context, tx Querier, id string) error) Shared {
	return Shared{
		core:          NewCore(s, put),
		machineAccess: MachineAccess{S: s},
		adminStore:    NewAdmin(s, guard, deleteUser),
		organizations: Organizations{S: s},
	}
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

// lockRow runs query, which locks the one row it names until tx ends: a
// write that changes nothing of it (SET name = name) takes a row lock on
// PostgreSQL and, on SQLite, the database's write lock, which BEGIN
// IMMEDIATE took already (Dialect.LockUser is each dialect's own).
// adapter.ErrNotFound (of what) when there is no such row.
func (s Store) lockRow(ctx context.Context, tx Querier, what, query string, args ...any) error {
	n, err := tx.Exec(ctx, query, args...)
	return s.OneRow(n, err, what)
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
func (st Core) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	if _, err := st.s.DB.Exec(ctx, insertUser, st.s.UserArgs(u)...); err != nil {
		return adapter.User{}, st.s.Error("insert user", err)
	}
	return u, nil
}

// CreateUserWithAccount stores u and its first account in one
// transaction.
func (st Core) CreateUserWithAccount(ctx context.Context, u adapter.User, acc account.Account) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	acc.UserID = u.ID
	accArgs, err := st.s.AccountArgs(acc)
	if err != nil {
		return adapter.User{}, err
	}
	err = st.s.InTx(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, insertUser, st.s.UserArgs(u)...); err != nil {
			return st.s.Error("insert user", err)
		}
		if _, err := tx.Exec(ctx, InsertAccount, accArgs...); err != nil {
			return st.s.Error("insert account", err)
		}
		return nil
	})
	if err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// GetUser returns the user with the given id.
func (st Core) GetUser(ctx context.Context, id string) (adapter.User, error) {
	row := st.s.DB.QueryRow(ctx, `SELECT `+UserColumns+` FROM gatehouse_users u WHERE u.id = $1`, id)
	return st.s.ScanUser(row, "get user")
}

// GetUserByEmail returns the user with the given e-mail address.
func (st Core) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	row := st.s.DB.QueryRow(ctx, `SELECT `+UserColumns+` FROM gatehouse_users u WHERE u.email = $1`, email)
	return st.s.ScanUser(row, "get user by e-mail")
}

// GetUserByAccount returns the user linked to the provider account.
func (st Core) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	row := st.s.DB.QueryRow(ctx, `SELECT `+UserColumns+`
		FROM gatehouse_accounts a JOIN gatehouse_users u ON u.id = a.user_id
		WHERE a.provider = $1 AND a.provider_account_id = $2`, provider, providerAccountID)
	return st.s.ScanUser(row, "get user by account")
}

// UpdateUser replaces the stored user with the same ID.
func (st Core) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	n, err := st.s.DB.Exec(ctx, `UPDATE gatehouse_users
		SET name = $2, email = NULLIF($3, ''), email_verified = $4, image = $5
		WHERE id = $1`, st.s.UserArgs(u)...)
	if err := st.s.OneRow(n, err, "update user"); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// UnlinkAccount removes the provider account.
func (st Core) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	n, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return st.s.OneRow(n, err, "unlink account")
}

// GetAccount returns the provider account.
func (st Core) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	row := st.s.DB.QueryRow(ctx, `SELECT `+AccountColumns+` FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return st.s.ScanAccount(row)
}

// ListAccounts returns the user's accounts ordered by provider and
// provider account id.
func (st Core) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	rows, err := st.s.DB.Query(ctx, `SELECT `+AccountColumns+` FROM gatehouse_accounts
		WHERE user_id = $1 ORDER BY provider, provider_account_id`, userID)
	if err != nil {
		return nil, st.s.Error("list accounts", err)
	}
	defer rows.Close()
	return ScanAll(st.s.Dialect, rows, "list accounts", st.s.ScanAccount)
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID).
func (st Core) UpdateAccount(ctx context.Context, acc account.Account) error {
	args, err := st.s.TokenSetArgs(acc)
	if err != nil {
		return err
	}
	n, err := st.s.DB.Exec(ctx, `UPDATE gatehouse_accounts
		SET access_token = $3, id_token = $4, refresh_token = $5, expires_at = $6, expires_in = $7,
			scope = $8, token_type = $9, session_state = $10, extra = $11
		WHERE provider = $1 AND provider_account_id = $2`, args...)
	return st.s.OneRow(n, err, "update account")
}

// SessionAndUser is the query of GetSessionAndUser, which
// Dialect.ScanSessionAndUser reads.
const SessionAndUser = `SELECT s.token, s.user_id, s.expires, s.created_at, ` + UserColumns + `
	FROM gatehouse_sessions s JOIN gatehouse_users u ON u.id = s.user_id
	WHERE s.token = $1`

// UpdateSession sets the session's expiry, and its UpdatedAt to now (the
// adapter's clock, not the database's), and returns the session.
func (st Core) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	row := st.s.DB.QueryRow(ctx, `UPDATE gatehouse_sessions SET expires = $2, updated_at = $3 WHERE token = $1
		RETURNING `+SessionColumns, token, st.s.TimeArg(stored.Time(expires)), st.s.TimeArg(stored.Time(time.Now())))
	return st.s.ScanSession(row, "update session")
}

// DeleteSession removes the session and returns it as it was.
func (st Core) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	row := st.s.DB.QueryRow(ctx, `DELETE FROM gatehouse_sessions WHERE token = $1
		RETURNING `+SessionColumns, token)
	return st.s.ScanSession(row, "delete session")
}

// CreateVerificationToken stores t.
func (st Core) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	_, err := st.s.DB.Exec(ctx, `INSERT INTO gatehouse_verification_tokens (`+VerificationTokenColumns+`)
		VALUES ($1, $2, $3)`, t.Identifier, t.TokenHash, st.s.TimeArg(stored.Time(t.Expires)))
	if err != nil {
		return st.s.Error("create verification token", err)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (st Core) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	row := st.s.DB.QueryRow(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = $1 AND token_hash = $2
		RETURNING `+VerificationTokenColumns, identifier, tokenHash)
	return st.s.ScanVerificationToken(row)
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now.
func (st Core) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	cut := st.s.TimeArg(stored.Time(now))
	n, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE expires < $1`, cut)
	if err != nil {
		return 0, 0, st.s.Error("delete expired sessions", err)
	}
	m, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_verification_tokens WHERE expires < $1`, cut)
	if err != nil {
		return int(n), 0, st.s.Error("delete expired tokens", err)
	}
	return int(n), int(m), nil
}

// DeleteUserSessions removes every session of the user userID.
func (st Core) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	n, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, st.s.Error("delete user sessions", err)
	}
	return int(n), nil
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user.
func (st Core) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if userID == "" && sid == "" {
		return 0, nil
	}
	n, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_sessions
		WHERE provider = $1 AND ($2 = '' OR user_id = $2) AND ($3 = '' OR sid = $3)`, provider, userID, sid)
	if err != nil {
		return 0, st.s.Error("delete provider sessions", err)
	}
	return int(n), nil
}

// ListSessions returns the user's sessions, latest expiry first.
func (st Core) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	rows, err := st.s.DB.Query(ctx, `SELECT `+SessionColumns+` FROM gatehouse_sessions
		WHERE user_id = $1 ORDER BY expires DESC, token`, userID)
	if err != nil {
		return nil, st.s.Error("list sessions", err)
	}
	defer rows.Close()
	return ScanAll(st.s.Dialect, rows, "list sessions", func(r Row) (adapter.Session, error) {
		return st.s.ScanSession(r, "list sessions")
	})
}

// GetAuthenticator returns the credential with the given id.
func (st Core) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	row := st.s.DB.QueryRow(ctx, `SELECT `+AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE credential_id = $1`, credentialID)
	return st.s.ScanAuthenticator(row)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id.
func (st Core) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	rows, err := st.s.DB.Query(ctx, `SELECT `+AuthenticatorColumns+` FROM gatehouse_authenticators
		WHERE user_id = $1 ORDER BY credential_id`, userID)
	if err != nil {
		return nil, st.s.Error("list authenticators", err)
	}
	defer rows.Close()
	return ScanAll(st.s.Dialect, rows, "list authenticators", st.s.ScanAuthenticator)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement, so that of two concurrent updates to the same value one
// changes no row: PostgreSQL's row lock makes the second see the first
// one's counter, SQLite's write lock runs them one after the other.
func (st Core) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	row := st.s.DB.QueryRow(ctx, `UPDATE gatehouse_authenticators SET counter = $1
		WHERE credential_id = $2 AND (counter < $1 OR (counter = 0 AND $1 = 0))
		RETURNING `+AuthenticatorColumns, int64(counter), credentialID)
	return st.s.UpdatedCounter(ctx, row, credentialID, counter, st.GetAuthenticator)
}

// PasswordHash returns the user's password hash.
func (st Core) PasswordHash(ctx context.Context, userID string) (string, error) {
	var hash string
	err := st.s.DB.QueryRow(ctx, `SELECT hash FROM gatehouse_passwords WHERE user_id = $1`, userID).Scan(&hash)
	if err != nil {
		return "", st.s.Error("get password", err)
	}
	return hash, nil
}

// DeletePasswordHash removes the user's password hash.
func (st Core) DeletePasswordHash(ctx context.Context, userID string) error {
	if _, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = $1`, userID); err != nil {
		return st.s.Error("delete password", err)
	}
	return nil
}

// TwoFactor returns the user's two-factor secret with its backup codes,
// in one query.
func (st Core) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	rows, err := st.s.DB.Query(ctx, `SELECT `+TwoFactorColumns+`
		FROM gatehouse_two_factor t LEFT JOIN gatehouse_two_factor_backup_codes c ON c.user_id = t.user_id
		WHERE t.user_id = $1 ORDER BY c.position`, userID)
	if err != nil {
		return twofactor.Secret{}, st.s.Error("get two-factor secret", err)
	}
	defer rows.Close()
	return st.s.ScanTwoFactor(rows, userID)
}

// AdvanceTOTPStep moves the user's last accepted TOTP step forward to
// step, in one conditional UPDATE, so that of two requests with the same
// code only one succeeds (RFC 6238 §5.2); twofactor.ErrReplayed when the
// step is not past the last. On PostgreSQL a concurrent UPDATE of the row
// waits for this one and, under READ COMMITTED, re-checks the condition on
// the row as it committed.
func (st Core) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	n, err := st.s.DB.Exec(ctx, `UPDATE gatehouse_two_factor SET last_step = $2
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	if err != nil {
		return st.s.Error("advance TOTP step", err)
	}
	if n == 1 {
		return nil
	}
	return st.s.Unchanged("TOTP step", userID, st.s.enrolled(ctx, userID), twofactor.ErrReplayed)
}

// ConsumeBackupCode removes hash from the user's backup codes in one
// DELETE, whose row count says whether it was there: of two requests with
// the same code only one succeeds.
func (st Core) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	n, err := st.s.DB.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes
		WHERE user_id = $1 AND hash = $2`, userID, hash)
	if err != nil {
		return st.s.Error("consume backup code", err)
	}
	if n == 1 {
		return nil
	}
	return st.s.Unchanged("backup code", userID, st.s.enrolled(ctx, userID), twofactor.ErrInvalidCode)
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

// ReplaceBackupCodes replaces the user's backup code hashes, in one
// transaction that first updates (and so locks) the user's secret;
// twofactor.ErrNotEnrolled when the user has none.
func (st Core) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error {
	return st.s.InTx(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE gatehouse_two_factor SET updated_at = $2 WHERE user_id = $1`,
			userID, st.s.TimeArg(stored.Time(time.Now())))
		if err != nil {
			return st.s.Error("replace backup codes", err)
		}
		if n == 0 {
			return st.s.NotEnrolled(userID)
		}
		return st.put(ctx, tx, userID, hashes)
	})
}

// Adapter is every interface both SQL adapters implement, for each to
// check in one assertion. Shared implements part of it alone (checked
// below); the adapters add the statements that differ.
type Adapter interface {
	adapter.Adapter
	adapter.Migrator
	adapter.AuthenticatorAdapter
	adapter.AccountLocker
	adapter.PasswordStore
	adapter.SessionRevoker
	adapter.ProviderSessionRevoker
	adapter.Sweeper
	adapter.SessionLister
	twofactor.Store
	apikey.Store
	servicetoken.KeyStore
	organization.Store
	admin.Store
}

// The interfaces that the parts of Shared implement alone.
var (
	_ adapter.SessionRevoker         = Core{}
	_ adapter.ProviderSessionRevoker = Core{}
	_ adapter.Sweeper                = Core{}
	_ adapter.SessionLister          = Core{}
	_ apikey.Store                   = MachineAccess{}
	_ servicetoken.KeyStore          = MachineAccess{}
	_ organization.Store             = Organizations{}
	_ admin.Store                    = Admin{}
	_ admin.OwnerKeeper              = Admin{}
)
