// Package sqlite is the embedded default adapter.Adapter, on SQLite through
// the pure-Go driver modernc.org/sqlite (no cgo, nothing to install).
//
// Open a database file and create or upgrade its tables once at start:
//
//	a, err := sqlite.Open(ctx, "gatehouse.db")
//	if err != nil { ... }
//	defer a.Close()
//	if err := a.Migrate(ctx); err != nil { ... }
//
// The tables are named gatehouse_users, gatehouse_accounts,
// gatehouse_sessions, gatehouse_verification_tokens, gatehouse_authenticators,
// gatehouse_passwords, gatehouse_two_factor, gatehouse_two_factor_backup_codes
// and gatehouse_schema_version, so they can share a database with the
// application's own. Times are stored as INTEGER microseconds since the Unix
// epoch, in UTC; an account's Extra is stored as a JSON object.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"

	sqlitedriver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
)

// BusyTimeout is how long a connection made by Open waits for another
// writer to finish before it gives up with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Adapter is an adapter.Adapter and adapter.Migrator on a SQLite database.
// It is safe for concurrent use. Besides the methods listed here it has
// every method of adapter.AuthenticatorAdapter, adapter.PasswordStore,
// the session revokers, adapter.Sweeper, adapter.SessionLister,
// twofactor.Store, apikey.Store, servicetoken.KeyStore,
// organization.Store, organization.TeamStore and admin.Store, run with
// the statements it shares with the PostgreSQL adapter.
type Adapter struct {
	db     *sql.DB
	owned  bool           // db was opened by Open, and Close closes it
	store  sqlstore.Store // the statements shared with the PostgreSQL adapter, on db
	shared                // the methods run alike on store: sqlstore.Shared

	// sessionStmt is the prepared query of GetSessionAndUser, the read
	// made on every request of a database-session app. It is prepared on
	// first use, since the tables may not exist before Migrate.
	mu          sync.Mutex // held while preparing
	sessionStmt atomic.Pointer[sql.Stmt]
}

// shared is sqlstore.Shared, embedded under an unexported name so that
// the Adapter gains its methods and no exported field.
type shared = sqlstore.Shared

// The adapter implements every interface of sqlstore.Adapter.
var _ sqlstore.Adapter = (*Adapter)(nil)

// Open opens (creating it if needed) the SQLite database file at path, with
// write-ahead logging, a busy timeout of BusyTimeout, foreign keys enforced
// and write transactions that take the write lock when they begin. The path
// ":memory:" opens a private in-memory database on a single connection.
// Open does not create the tables: call Migrate.
func Open(ctx context.Context, path string) (*Adapter, error) {
	memory := path == ":memory:" || path == ""
	db, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if memory {
		// Each connection to ":memory:" is a database of its own: keep
		// exactly one, for ever.
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	}
	if err := ping(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return onDB(db, true), nil
}

// ping opens the first connection, which applies the pragmas of DSN. While
// another process is switching a brand-new file to write-ahead logging,
// SQLite answers SQLITE_BUSY at once, without calling the busy handler
// (https://sqlite.org/wal.html#sometimes_queries_return_sqlite_busy_in_wal_mode),
// so ping retries that answer itself for up to BusyTimeout.
func ping(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(BusyTimeout)
	wait := 2 * time.Millisecond
	for {
		err := db.PingContext(ctx)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY, in any of its
// extended forms.
func isBusy(err error) bool {
	var se *sqlitedriver.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// DSN returns the data source name Open uses for the database file at path:
// the file name followed by the connection settings Open describes. Use it
// to open a *sql.DB of your own for New with the same settings.
func DSN(path string) string {
	if path == "" {
		path = ":memory:"
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if path != ":memory:" {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Set("_txlock", "immediate")
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + q.Encode()
}

// New returns an adapter on db, a database opened with the driver name
// "sqlite" of modernc.org/sqlite. The caller keeps ownership of db: Close
// does not close it. Open db with DSN (or equivalent settings) so that
// concurrent writers wait for each other instead of failing with
// SQLITE_BUSY (Migrate refuses a database without a busy timeout); the
// adapter itself does not depend on foreign keys being enforced.
func New(db *sql.DB) *Adapter {
	return onDB(db, false)
}

// onDB returns an adapter on db, which Close closes when owned.
func onDB(db *sql.DB, owned bool) *Adapter {
	st := sqlstore.Store{Dialect: dialect, DB: sqlstore.SQLDB(db)}
	return &Adapter{db: db, owned: owned, store: st, shared: sqlstore.NewShared(st, putBackupCodes, sqlstore.ExistsGuard, deleteUser)}
}

// Close closes the database when Open opened it; it does nothing for an
// adapter made with New.
func (a *Adapter) Close() error {
	a.mu.Lock()
	stmt := a.sessionStmt.Swap(nil)
	a.mu.Unlock()
	var err error
	if stmt != nil {
		err = stmt.Close()
	}
	if a.owned {
		err = errors.Join(err, a.db.Close())
	}
	return err
}

// dialect is how SQLite stores times (INTEGER microseconds since the
// epoch) and an account's Extra (TEXT), and how modernc.org/sqlite
// reports errors.
var dialect = sqlstore.Dialect{
	Name:        "sqlite",
	Time:        func(t *time.Time) any { return micros{t} },
	NullTime:    func(t **time.Time) any { return nullMicros{t} },
	TimeArg:     func(t time.Time) any { return t.UnixMicro() },
	NullTimeArg: microsPtr,
	ExtraArg:    nullString,
	LockUser:    `UPDATE gatehouse_users SET id = id WHERE id = $1`,
	ErrNoRows:   sql.ErrNoRows,
	Kind:        errorKind,
}

// errorKind maps the extended result code of a SQLite error to an adapter
// error.
func errorKind(err error) error {
	var se *sqlitedriver.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return adapter.ErrConflict
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return adapter.ErrNotFound
		}
	}
	return nil
}

// DeleteUser removes the user with its accounts, sessions,
// authenticators, password and two-factor secret. The schema cascades;
// the adapter deletes them explicitly as well, so that a database opened
// without foreign keys enforced keeps no orphans.
func (a *Adapter) DeleteUser(ctx context.Context, id string) error {
	return a.store.InTx(ctx, func(tx sqlstore.Querier) error { return deleteUser(ctx, tx, id) })
}

// deleteUser is DeleteUser in tx, which PurgeUser (sqlstore.Admin) runs
// too: row by row, as foreign keys may be off.
func deleteUser(ctx context.Context, tx sqlstore.Querier, id string) error {
	for _, table := range []string{"sessions", "accounts", "authenticators", "active_organizations", "team_members", "members", "api_keys", "admin"} {
		if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_`+table+` WHERE user_id = ?`, id); err != nil {
			return dialect.Error("delete user's "+table, err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = ?`, id); err != nil {
		return dialect.Error("delete user's password", err)
	}
	if err := deleteTwoFactor(ctx, tx, id); err != nil {
		return err
	}
	n, err := tx.Exec(ctx, `DELETE FROM gatehouse_users WHERE id = ?`, id)
	return dialect.OneRow(n, err, "delete user")
}

// LinkAccount stores acc; ErrNotFound when its user does not exist.
func (a *Adapter) LinkAccount(ctx context.Context, acc account.Account) error {
	args, err := dialect.AccountArgs(acc)
	if err != nil {
		return err
	}
	args = append(args, acc.UserID)
	n, err := a.store.DB.Exec(ctx, `INSERT INTO gatehouse_accounts (`+sqlstore.AccountColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`, args...)
	if err != nil {
		return dialect.Error("link account", err)
	}
	return dialect.OneRow(n, nil, "link account: user")
}

// CreateSession stores s; ErrNotFound when its user does not exist.
func (a *Adapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	s = sqlstore.PrepareSession(s)
	args := append(dialect.SessionArgs(s), s.UserID)
	n, err := a.store.DB.Exec(ctx, `INSERT INTO gatehouse_sessions (`+sqlstore.SessionColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`, args...)
	if err != nil {
		return adapter.Session{}, dialect.Error("create session", err)
	}
	if err := dialect.OneRow(n, nil, "create session: user"); err != nil {
		return adapter.Session{}, err
	}
	return s, nil
}

// GetSessionAndUser returns the session and its user, expired or not, in
// one query.
func (a *Adapter) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	stmt, err := a.prepared(ctx)
	if err != nil {
		return adapter.Session{}, adapter.User{}, dialect.Error("get session: prepare", err)
	}
	return dialect.ScanSessionAndUser(stmt.QueryRowContext(ctx, token))
}

// prepared returns the prepared sqlstore.SessionAndUser, preparing it
// when needed.
func (a *Adapter) prepared(ctx context.Context) (*sql.Stmt, error) {
	if stmt := a.sessionStmt.Load(); stmt != nil {
		return stmt, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if stmt := a.sessionStmt.Load(); stmt != nil {
		return stmt, nil
	}
	stmt, err := a.db.PrepareContext(ctx, sqlstore.SessionAndUser)
	if err != nil {
		return nil, err
	}
	a.sessionStmt.Store(stmt)
	return stmt, nil
}
