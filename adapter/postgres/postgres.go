// Package postgres is an adapter.Adapter on PostgreSQL, through
// github.com/jackc/pgx/v5 and its connection pool.
//
//	a, err := postgres.Open(ctx, "postgres://gatehouse@db.internal/app")
//	if err != nil { ... }
//	defer a.Close()
//	if err := a.Migrate(ctx); err != nil { ... }
//
// The tables are named gatehouse_users, gatehouse_accounts,
// gatehouse_sessions, gatehouse_verification_tokens, gatehouse_authenticators,
// gatehouse_passwords, gatehouse_two_factor, gatehouse_two_factor_backup_codes
// and gatehouse_schema_version. They are not qualified with a schema: they live
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

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
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

// dialect is how PostgreSQL stores times (timestamptz, read as they are)
// and an account's Extra (jsonb), and how pgx reports errors.
var dialect = sqlstore.Dialect{
	Name:        "postgres",
	Time:        func(t *time.Time) any { return t },
	NullTime:    func(t **time.Time) any { return t },
	TimeArg:     func(t time.Time) any { return t },
	NullTimeArg: func(t *time.Time) any { return t },
	ExtraArg:    func(b []byte) any { return b },
	ErrNoRows:   pgx.ErrNoRows,
	Kind:        errorKind,
}

// errorKind maps the SQLSTATE of a PostgreSQL error to an adapter error.
func errorKind(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case uniqueViolation:
			return adapter.ErrConflict
		case foreignKeyViolation:
			return adapter.ErrNotFound
		}
	}
	return nil
}

// insertAccount inserts the sqlstore.AccountColumns.
const insertAccount = `INSERT INTO gatehouse_accounts (` + sqlstore.AccountColumns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`

// insertUser inserts the sqlstore.Dialect.UserArgs of a user.
const insertUser = `INSERT INTO gatehouse_users (id, name, email, email_verified, image)
	VALUES ($1, $2, NULLIF($3, ''), $4, $5)`

// CreateUser stores u, assigning an ID when u.ID is empty.
func (a *Adapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	if _, err := a.pool.Exec(ctx, insertUser, dialect.UserArgs(u)...); err != nil {
		return adapter.User{}, dialect.Error("insert user", err)
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
	accArgs, err := dialect.AccountArgs(acc)
	if err != nil {
		return adapter.User{}, err
	}
	tx, err := a.pool.Begin(ctx)
	if err != nil {
		return adapter.User{}, dialect.Error("begin", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, insertUser, dialect.UserArgs(u)...); err != nil {
		return adapter.User{}, dialect.Error("insert user", err)
	}
	if _, err := tx.Exec(ctx, insertAccount, accArgs...); err != nil {
		return adapter.User{}, dialect.Error("insert account", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return adapter.User{}, dialect.Error("commit", err)
	}
	return u, nil
}

// GetUser returns the user with the given id.
func (a *Adapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+sqlstore.UserColumns+` FROM gatehouse_users u WHERE u.id = $1`, id)
	return dialect.ScanUser(row, "get user")
}

// GetUserByEmail returns the user with the given e-mail address. An empty
// address matches no user.
func (a *Adapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+sqlstore.UserColumns+` FROM gatehouse_users u WHERE u.email = $1`, email)
	return dialect.ScanUser(row, "get user by e-mail")
}

// GetUserByAccount returns the user linked to the provider account.
func (a *Adapter) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+sqlstore.UserColumns+`
		FROM gatehouse_accounts a JOIN gatehouse_users u ON u.id = a.user_id
		WHERE a.provider = $1 AND a.provider_account_id = $2`, provider, providerAccountID)
	return dialect.ScanUser(row, "get user by account")
}

// UpdateUser replaces the stored user with the same ID.
func (a *Adapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	tag, err := a.pool.Exec(ctx, `UPDATE gatehouse_users
		SET name = $2, email = NULLIF($3, ''), email_verified = $4, image = $5
		WHERE id = $1`, dialect.UserArgs(u)...)
	if err != nil {
		return adapter.User{}, dialect.Error("update user", err)
	}
	if err := oneRow(tag, "update user"); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// DeleteUser removes the user; its accounts, sessions, authenticators,
// password and two-factor secret go with it (ON DELETE CASCADE).
func (a *Adapter) DeleteUser(ctx context.Context, id string) error {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_users WHERE id = $1`, id)
	if err != nil {
		return dialect.Error("delete user", err)
	}
	return oneRow(tag, "delete user")
}

// LinkAccount stores acc; ErrNotFound when its user does not exist (the
// foreign key refuses it).
func (a *Adapter) LinkAccount(ctx context.Context, acc account.Account) error {
	args, err := dialect.AccountArgs(acc)
	if err != nil {
		return err
	}
	if _, err := a.pool.Exec(ctx, insertAccount, args...); err != nil {
		return dialect.Error("link account", err)
	}
	return nil
}

// UnlinkAccount removes the provider account.
func (a *Adapter) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	if err != nil {
		return dialect.Error("unlink account", err)
	}
	return oneRow(tag, "unlink account")
}

// GetAccount returns the provider account.
func (a *Adapter) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	row := a.pool.QueryRow(ctx, `SELECT `+sqlstore.AccountColumns+` FROM gatehouse_accounts
		WHERE provider = $1 AND provider_account_id = $2`, provider, providerAccountID)
	return dialect.ScanAccount(row)
}

// ListAccounts returns the user's accounts ordered by provider and provider
// account id; none for an unknown user.
func (a *Adapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	rows, err := a.pool.Query(ctx, `SELECT `+sqlstore.AccountColumns+` FROM gatehouse_accounts
		WHERE user_id = $1 ORDER BY provider, provider_account_id`, userID)
	if err != nil {
		return nil, dialect.Error("list accounts", err)
	}
	defer rows.Close()
	return sqlstore.ScanAll(dialect, rows, "list accounts", dialect.ScanAccount)
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID). The user and type stay as they are.
func (a *Adapter) UpdateAccount(ctx context.Context, acc account.Account) error {
	args, err := dialect.TokenSetArgs(acc)
	if err != nil {
		return err
	}
	tag, err := a.pool.Exec(ctx, `UPDATE gatehouse_accounts
		SET access_token = $3, id_token = $4, refresh_token = $5, expires_at = $6, expires_in = $7,
			scope = $8, token_type = $9, session_state = $10, extra = $11
		WHERE provider = $1 AND provider_account_id = $2`, args...)
	if err != nil {
		return dialect.Error("update account", err)
	}
	return oneRow(tag, "update account")
}

// CreateSession stores s; ErrNotFound when its user does not exist (the
// foreign key refuses it).
func (a *Adapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	s = sqlstore.PrepareSession(s)
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_sessions (`+sqlstore.SessionColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, dialect.SessionArgs(s)...)
	if err != nil {
		return adapter.Session{}, dialect.Error("create session", err)
	}
	return s, nil
}

// GetSessionAndUser returns the session and its user, expired or not, in
// one query.
func (a *Adapter) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	row := a.pool.QueryRow(ctx, `SELECT s.token, s.user_id, s.expires, s.created_at, `+sqlstore.UserColumns+`
		FROM gatehouse_sessions s JOIN gatehouse_users u ON u.id = s.user_id
		WHERE s.token = $1`, token)
	return dialect.ScanSessionAndUser(row)
}

// UpdateSession sets the session's expiry, and its UpdatedAt to now, and
// returns the session. Now is the adapter's clock, not the database's, as
// for every other time the adapters store.
func (a *Adapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	row := a.pool.QueryRow(ctx, `UPDATE gatehouse_sessions SET expires = $2, updated_at = $3 WHERE token = $1
		RETURNING `+sqlstore.SessionColumns, token, stored.Time(expires), stored.Time(time.Now()))
	return dialect.ScanSession(row, "update session")
}

// DeleteSession removes the session and returns it as it was.
func (a *Adapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	row := a.pool.QueryRow(ctx, `DELETE FROM gatehouse_sessions WHERE token = $1
		RETURNING `+sqlstore.SessionColumns, token)
	return dialect.ScanSession(row, "delete session")
}

// CreateVerificationToken stores t.
func (a *Adapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_verification_tokens (`+sqlstore.VerificationTokenColumns+`)
		VALUES ($1, $2, $3)`, t.Identifier, t.TokenHash, stored.Time(t.Expires))
	if err != nil {
		return dialect.Error("create verification token", err)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (a *Adapter) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	row := a.pool.QueryRow(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = $1 AND token_hash = $2
		RETURNING `+sqlstore.VerificationTokenColumns, identifier, tokenHash)
	return dialect.ScanVerificationToken(row)
}

// oneRow returns ErrNotFound when the command affected no row.
func oneRow(tag pgconn.CommandTag, what string) error {
	if tag.RowsAffected() == 0 {
		return dialect.NotFound(what)
	}
	return nil
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now (adapter.Sweeper).
func (a *Adapter) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE expires < $1`, now)
	if err != nil {
		return 0, 0, dialect.Error("delete expired sessions", err)
	}
	tag2, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_verification_tokens WHERE expires < $1`, now)
	if err != nil {
		return int(tag.RowsAffected()), 0, dialect.Error("delete expired tokens", err)
	}
	return int(tag.RowsAffected()), int(tag2.RowsAffected()), nil
}
