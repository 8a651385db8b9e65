// Package postgres is an adapter.Adapter on PostgreSQL, through
// github.com/jackc/pgx/v5 and its connection pool.
//
//	a, err := postgres.Open(ctx, "postgres://gatehouse@db.internal/app")
//	if err != nil { ... }
//	defer a.Close()
//	if err := a.Migrate(ctx); err != nil { ... }
//
// The tables are named gatehouse_users, gatehouse_accounts,
// gatehouse_sessions, gatehouse_verification_tokens, gatehouse_authenticators and
// gatehouse_schema_version. They are not qualified with a schema: they live
// in the first schema of the connections' search_path, so an application can
// place them where it likes (for example with search_path in the connection
// string, or in pgxpool.Config's RuntimeParams). Times are stored as
// timestamptz (microsecond precision); an account's Extra as jsonb.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
)

// SQLSTATE codes the adapter maps to adapter errors.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

// Adapter is an adapter.Adapter and adapter.Migrator on a PostgreSQL
// connection pool. It is safe for concurrent use.
type Adapter struct {
	pool  *pgxpool.Pool
	owned bool // pool was made by Open, and Close closes it
}

var (
	_ adapter.Adapter  = (*Adapter)(nil)
	_ adapter.Migrator = (*Adapter)(nil)
)

// New returns an adapter on pool. The caller keeps ownership of pool:
// Close does not close it.
func New(pool *pgxpool.Pool) *Adapter {
	return &Adapter{pool: pool}
}

// Open connects to the database at dsn (a URL or key=value connection
// string, as pgxpool.ParseConfig reads it) and checks that it answers.
// Open does not create the tables: call Migrate.
func Open(ctx context.Context, dsn string) (*Adapter, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse connection string: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	return &Adapter{pool: pool, owned: true}, nil
}

// Close closes the pool when Open made it; it does nothing for an adapter
// made with New.
func (a *Adapter) Close() {
	if a.owned {
		a.pool.Close()
	}
}

// userColumns are the columns scanUser reads, in its order.
const userColumns = `u.id, u.name, COALESCE(u.email, ''), u.email_verified, u.image`

// accountColumns are the columns scanAccount reads, in its order.
const accountColumns = `provider, provider_account_id, user_id, type,
	access_token, id_token, refresh_token, expires_at, expires_in,
	scope, token_type, session_state, extra`

// insertAccount inserts the accountColumns.
const insertAccount = `INSERT INTO gatehouse_accounts (` + accountColumns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// insertUser inserts a user.
const insertUser = `INSERT INTO gatehouse_users (id, name, email, email_verified, image)
	VALUES ($1, $2, NULLIF($3, ''), $4, $5)`

// CreateUser stores u, assigning an ID when u.ID is empty.
func (a *Adapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	_, err = a.pool.Exec(ctx, insertUser, u.ID, u.Name, u.Email, u.EmailVerified, u.Image)
	if err != nil {
		return adapter.User{}, dbError("insert user", err)
	}
	return u, nil
}

// CreateUserWithAccount stores u and its first account in one transaction.
func (a *Adapter) CreateUserWithAccount(ctx context.Context, u adapter.User, acc account.Account) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	acc.UserID = u.ID
	extra, err := stored.EncodeExtra(acc.Extra)
	if err != nil {
		return adapter.User{}, err
	}
	tx, err := a.pool.Begin(ctx)
	if err != nil {
		return adapter.User{}, dbError("begin", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, insertUser, u.ID, u.Name, u.Email, u.EmailVerified, u.Image); err != nil {
		return adapter.User{}, dbError("insert user", err)
	}
	if _, err := tx.Exec(ctx, insertAccount, accountArgs(acc, extra)...); err != nil {
		return adapter.User{}, dbError("insert account", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return adapter.User{}, dbError("commit", err)
	}
	return u, nil
}

// GetUser returns the user with the given id.
func (a *Adapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM gatehouse_users u WHERE u.id = $1`, id)
	return scanUser(row, "get user")
}

// GetUserByEmail returns the user with the given e-mail address. An empty
// address matches no user.
func (a *Adapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM gatehouse_users u WHERE u.email = $1`, email)
	return scanUser(row, "get user by e-mail")
}

// GetUserByAccount returns the user linked to the provider account.
func (a *Adapter) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+userColumns+`
		FROM gatehouse_accounts a JOIN gatehouse_users u ON u.id = a.user_id
		WHERE a.provider = $1 AND a.provider_account_id = $2`, provider, providerAccountID)
	return scanUser(row, "get user by account")
}

// UpdateUser replaces the stored user with the same ID.
func (a *Adapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	tag, err := a.pool.Exec(ctx, `UPDATE gatehouse_users
		SET name = $2, email = NULLIF($3, ''), email_verified = $4, image = $5
		WHERE id = $1`, u.ID, u.Name, u.Email, u.EmailVerified, u.Image)
	if err != nil {
		return adapter.User{}, dbError("update user", err)
	}
	if err := oneRow(tag, "update user"); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// DeleteUser removes the user; its accounts and sessions go with it
// (ON DELETE CASCADE).
func (a *Adapter) DeleteUser(ctx context.Context, id string) error {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_users WHERE id = $1`, id)
	if err != nil {
		return dbError("delete user", err)
	}
	return oneRow(tag, "delete user")
}

// LinkAccount stores acc; ErrNotFound when its user does not exist.
func (a *Adapter) LinkAccount(ctx context.Context, acc account.Account) error {
	extra, err := stored.EncodeExtra(acc.Extra)
	if err != nil {
		return err
	}
	if _, err := a.pool.Exec(ctx, insertAccount, accountArgs(acc, extra)...); err != nil {
		return dbError("link account", err)
	}
	return nil
}

// UnlinkAccount removes the provider account.
func (a *Adapter) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	if err != nil {
		return dbError("unlink account", err)
	}
	return oneRow(tag, "unlink account")
}

// GetAccount returns the provider account.
func (a *Adapter) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return scanAccount(row)
}

// ListAccounts returns the user's accounts ordered by provider and provider
// account id; none for an unknown user.
func (a *Adapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	rows, err := a.pool.Query(ctx, `SELECT `+accountColumns+` FROM gatehouse_accounts
		WHERE user_id = $1 ORDER BY provider, provider_account_id`, userID)
	if err != nil {
		return nil, dbError("list accounts", err)
	}
	defer rows.Close()
	list := []account.Account{}
	for rows.Next() {
		acc, err := scanAccount(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, acc)
	}
	if err := rows.Err(); err != nil {
		return nil, dbError("list accounts", err)
	}
	return list, nil
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID). The user and type stay as they are.
func (a *Adapter) UpdateAccount(ctx context.Context, acc account.Account) error {
	extra, err := stored.EncodeExtra(acc.Extra)
	if err != nil {
		return err
	}
	tag, err := a.pool.Exec(ctx, `UPDATE gatehouse_accounts
		SET access_token = $3, id_token = $4, refresh_token = $5, expires_at = $6, expires_in = $7,
			scope = $8, token_type = $9, session_state = $10, extra = $11
		WHERE provider = $1 AND provider_account_id = $2`,
		acc.Provider, acc.ProviderAccountID,
		acc.AccessToken, acc.IDToken, acc.RefreshToken, acc.ExpiresAt, acc.ExpiresIn,
		acc.Scope, acc.TokenType, acc.SessionState, extra)
	if err != nil {
		return dbError("update account", err)
	}
	return oneRow(tag, "update account")
}

// CreateSession stores s; ErrNotFound when its user does not exist.
func (a *Adapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	s.Expires = stored.Time(s.Expires)
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_sessions (token, user_id, expires, provider, sid)
		VALUES ($1, $2, $3, $4, $5)`, s.Token, s.UserID, s.Expires, s.Provider, s.SID)
	if err != nil {
		return adapter.Session{}, dbError("create session", err)
	}
	return s, nil
}

// GetSessionAndUser returns the session and its user, expired or not, in
// one query.
func (a *Adapter) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT s.token, s.user_id, s.expires, `+userColumns+`
		FROM gatehouse_sessions s JOIN gatehouse_users u ON u.id = s.user_id
		WHERE s.token = $1`, token)
	var (
		s adapter.Session
		u adapter.User
	)
	err := row.Scan(&s.Token, &s.UserID, &s.Expires, &u.ID, &u.Name, &u.Email, &u.EmailVerified, &u.Image)
	if err != nil {
		return adapter.Session{}, adapter.User{}, dbError("get session", err)
	}
	s.Expires = s.Expires.UTC()
	u.EmailVerified = utcPtr(u.EmailVerified)
	return s, u, nil
}

// UpdateSession sets the session's expiry and returns the session.
func (a *Adapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	row := a.pool.QueryRow(ctx, `UPDATE gatehouse_sessions SET expires = $2 WHERE token = $1
		RETURNING token, user_id, expires`, token, stored.Time(expires))
	return scanSession(row, "update session")
}

// DeleteSession removes the session and returns it as it was.
func (a *Adapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	row := a.pool.QueryRow(ctx, `DELETE FROM gatehouse_sessions WHERE token = $1
		RETURNING token, user_id, expires`, token)
	return scanSession(row, "delete session")
}

// CreateVerificationToken stores t.
func (a *Adapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_verification_tokens (identifier, token_hash, expires)
		VALUES ($1, $2, $3)`, t.Identifier, t.TokenHash, stored.Time(t.Expires))
	if err != nil {
		return dbError("create verification token", err)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (a *Adapter) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	row := a.pool.QueryRow(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = $1 AND token_hash = $2
		RETURNING identifier, token_hash, expires`, identifier, tokenHash)
	var t adapter.VerificationToken
	if err := row.Scan(&t.Identifier, &t.TokenHash, &t.Expires); err != nil {
		return adapter.VerificationToken{}, dbError("use verification token", err)
	}
	t.Expires = t.Expires.UTC()
	return t, nil
}

// accountArgs returns the values of accountColumns for acc.
func accountArgs(acc account.Account, extra []byte) []any {
	return []any{
		acc.Provider, acc.ProviderAccountID, acc.UserID, string(acc.Type),
		acc.AccessToken, acc.IDToken, acc.RefreshToken, acc.ExpiresAt, acc.ExpiresIn,
		acc.Scope, acc.TokenType, acc.SessionState, extra,
	}
}

// scanUser reads the userColumns of one row.
func scanUser(row pgx.Row, what string) (adapter.User, error) {
	var u adapter.User
	if err := row.Scan(&u.ID, &u.Name, &u.Email, &u.EmailVerified, &u.Image); err != nil {
		return adapter.User{}, dbError(what, err)
	}
	u.EmailVerified = utcPtr(u.EmailVerified)
	return u, nil
}

// scanAccount reads the accountColumns of one row.
func scanAccount(row pgx.Row) (account.Account, error) {
	var (
		acc   account.Account
		typ   string
		extra []byte
	)
	err := row.Scan(&acc.Provider, &acc.ProviderAccountID, &acc.UserID, &typ,
		&acc.AccessToken, &acc.IDToken, &acc.RefreshToken, &acc.ExpiresAt, &acc.ExpiresIn,
		&acc.Scope, &acc.TokenType, &acc.SessionState, &extra)
	if err != nil {
		return account.Account{}, dbError("get account", err)
	}
	acc.Type = account.Type(typ)
	if extra != nil {
		if acc.Extra, err = stored.DecodeExtra(extra); err != nil {
			return account.Account{}, err
		}
	}
	return acc, nil
}

// scanSession reads token, user_id and expires.
func scanSession(row pgx.Row, what string) (adapter.Session, error) {
	var s adapter.Session
	if err := row.Scan(&s.Token, &s.UserID, &s.Expires); err != nil {
		return adapter.Session{}, dbError(what, err)
	}
	s.Expires = s.Expires.UTC()
	return s, nil
}

// oneRow returns ErrNotFound when the command affected no row.
func oneRow(tag pgconn.CommandTag, what string) error {
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: %s: %w", what, adapter.ErrNotFound)
	}
	return nil
}

// dbError wraps err, adding adapter.ErrNotFound for a missing row or
// foreign-key target and adapter.ErrConflict for a uniqueness violation.
func dbError(what string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: %s: %w", what, adapter.ErrNotFound)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case uniqueViolation:
			return fmt.Errorf("postgres: %s: %w: %w", what, adapter.ErrConflict, err)
		case foreignKeyViolation:
			return fmt.Errorf("postgres: %s: %w: %w", what, adapter.ErrNotFound, err)
		}
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now (adapter.Sweeper).
func (a *Adapter) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE expires < $1`, now)
	if err != nil {
		return 0, 0, dbError("delete expired sessions", err)
	}
	tag2, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_verification_tokens WHERE expires < $1`, now)
	if err != nil {
		return int(tag.RowsAffected()), 0, dbError("delete expired tokens", err)
	}
	return int(tag.RowsAffected()), int(tag2.RowsAffected()), nil
}
