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
// connection pool. It is safe for concurrent use. Besides the methods
// listed here it has every method of adapter.AuthenticatorAdapter,
// adapter.PasswordStore, the session revokers, adapter.Sweeper,
// adapter.SessionLister, twofactor.Store, apikey.Store,
// servicetoken.KeyStore, organization.Store, organization.TeamStore and
// admin.Store, run with the statements it shares with the SQLite
// adapter.
type Adapter struct {
	pool   *pgxpool.Pool
	owned  bool           // pool was made by Open, and Close closes it
	store  sqlstore.Store // the statements shared with the SQLite adapter, on pool
	shared                // the methods run alike on store: sqlstore.Shared
}

// shared is sqlstore.Shared, embedded under an unexported name so that
// the Adapter gains its methods and no exported field.
type shared = sqlstore.Shared

// The adapter implements every interface of sqlstore.Adapter.
var _ sqlstore.Adapter = (*Adapter)(nil)

// New returns an adapter on pool. The caller keeps ownership of pool:
// Close does not close it.
func New(pool *pgxpool.Pool) *Adapter {
	return onPool(pool, false)
}

// onPool returns an adapter on pool, which Close closes when owned.
func onPool(pool *pgxpool.Pool, owned bool) *Adapter {
	st := sqlstore.Store{Dialect: dialect, DB: pgxDB{pgxQueries{pool}, pool}}
	return &Adapter{pool: pool, owned: owned, store: st, shared: sqlstore.NewShared(st, putBackupCodes, sqlstore.ValuesGuard, deleteUser)}
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
	return onPool(pool, true), nil
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
	LockUser:    `SELECT id FROM gatehouse_users WHERE id = $1 FOR UPDATE`,
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

// DeleteUser removes the user; its accounts, sessions, authenticators,
// password and two-factor secret go with it (ON DELETE CASCADE).
func (a *Adapter) DeleteUser(ctx context.Context, id string) error {
	return deleteUser(ctx, a.store.DB, id) // admin.go
}

// LinkAccount stores acc; ErrNotFound when its user does not exist (the
// foreign key refuses it).
func (a *Adapter) LinkAccount(ctx context.Context, acc account.Account) error {
	args, err := dialect.AccountArgs(acc)
	if err != nil {
		return err
	}
	if _, err := a.pool.Exec(ctx, sqlstore.InsertAccount, args...); err != nil {
		return dialect.Error("link account", err)
	}
	return nil
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
	return dialect.ScanSessionAndUser(a.pool.QueryRow(ctx, sqlstore.SessionAndUser, token))
}
