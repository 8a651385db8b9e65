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
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"

	sqlitedriver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
)

// BusyTimeout is how long a connection made by Open waits for another
// writer to finish before it gives up with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Adapter is an adapter.Adapter and adapter.Migrator on a SQLite database.
// It is safe for concurrent use.
type Adapter struct {
	db    *sql.DB
	owned bool // db was opened by Open, and Close closes it

	// sessionStmt is the prepared query of GetSessionAndUser, the read
	// made on every request of a database-session app. It is prepared on
	// first use, since the tables may not exist before Migrate.
	mu          sync.Mutex // held while preparing
	sessionStmt atomic.Pointer[sql.Stmt]
}

var (
	_ adapter.Adapter  = (*Adapter)(nil)
	_ adapter.Migrator = (*Adapter)(nil)
)

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
	return &Adapter{db: db, owned: true}, nil
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
	return &Adapter{db: db}
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

// CreateUser stores u, assigning an ID when u.ID is empty.
func (a *Adapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	if err := insertUser(ctx, a.db, u); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// CreateUserWithAccount stores u and its first account a in one
// transaction.
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
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return adapter.User{}, dialect.Error("begin", err)
	}
	defer tx.Rollback()
	if err := insertUser(ctx, tx, u); err != nil {
		return adapter.User{}, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO gatehouse_accounts (`+sqlstore.AccountColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, accArgs...)
	if err != nil {
		return adapter.User{}, dialect.Error("insert account", err)
	}
	if err := tx.Commit(); err != nil {
		return adapter.User{}, dialect.Error("commit", err)
	}
	return u, nil
}

// GetUser returns the user with the given id.
func (a *Adapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+sqlstore.UserColumns+` FROM gatehouse_users u WHERE u.id = ?`, id)
	return dialect.ScanUser(row, "get user")
}

// GetUserByEmail returns the user with the given e-mail address. An empty
// address matches no user.
func (a *Adapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+sqlstore.UserColumns+` FROM gatehouse_users u WHERE u.email = ?`, email)
	return dialect.ScanUser(row, "get user by e-mail")
}

// GetUserByAccount returns the user linked to the provider account.
func (a *Adapter) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+sqlstore.UserColumns+`
		FROM gatehouse_accounts a JOIN gatehouse_users u ON u.id = a.user_id
		WHERE a.provider = ? AND a.provider_account_id = ?`, provider, providerAccountID)
	return dialect.ScanUser(row, "get user by account")
}

// UpdateUser replaces the stored user with the same ID.
func (a *Adapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	res, err := a.db.ExecContext(ctx, `UPDATE gatehouse_users
		SET name = ?2, email = NULLIF(?3, ''), email_verified = ?4, image = ?5
		WHERE id = ?1`, dialect.UserArgs(u)...)
	if err != nil {
		return adapter.User{}, dialect.Error("update user", err)
	}
	if err := oneRow(res, "update user"); err != nil {
		return adapter.User{}, err
	}
	return u, nil
}

// DeleteUser removes the user with its accounts, sessions,
// authenticators, password and two-factor secret. The schema cascades;
// the adapter deletes them explicitly as well, so that a database opened
// without foreign keys enforced keeps no orphans.
func (a *Adapter) DeleteUser(ctx context.Context, id string) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return dialect.Error("begin", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = ?`, id); err != nil {
		return dialect.Error("delete user's sessions", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_accounts WHERE user_id = ?`, id); err != nil {
		return dialect.Error("delete user's accounts", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_authenticators WHERE user_id = ?`, id); err != nil {
		return dialect.Error("delete user's authenticators", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = ?`, id); err != nil {
		return dialect.Error("delete user's password", err)
	}
	if err := deleteTwoFactor(ctx, tx, id); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_users WHERE id = ?`, id)
	if err != nil {
		return dialect.Error("delete user", err)
	}
	if err := oneRow(res, "delete user"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return dialect.Error("commit", err)
	}
	return nil
}

// LinkAccount stores acc; ErrNotFound when its user does not exist.
func (a *Adapter) LinkAccount(ctx context.Context, acc account.Account) error {
	args, err := dialect.AccountArgs(acc)
	if err != nil {
		return err
	}
	args = append(args, acc.UserID)
	res, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_accounts (`+sqlstore.AccountColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`, args...)
	if err != nil {
		return dialect.Error("link account", err)
	}
	return oneRow(res, "link account: user")
}

// UnlinkAccount removes the provider account.
func (a *Adapter) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_accounts
		WHERE provider = ? AND provider_account_id = ?`, provider, providerAccountID)
	if err != nil {
		return dialect.Error("unlink account", err)
	}
	return oneRow(res, "unlink account")
}

// GetAccount returns the provider account.
func (a *Adapter) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	row := a.db.QueryRowContext(ctx, `SELECT `+sqlstore.AccountColumns+` FROM gatehouse_accounts
		WHERE provider = ? AND provider_account_id = ?`, provider, providerAccountID)
	return dialect.ScanAccount(row)
}

// ListAccounts returns the user's accounts ordered by provider and provider
// account id; none for an unknown user.
func (a *Adapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+sqlstore.AccountColumns+` FROM gatehouse_accounts
		WHERE user_id = ? ORDER BY provider, provider_account_id`, userID)
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
	res, err := a.db.ExecContext(ctx, `UPDATE gatehouse_accounts
		SET access_token = ?3, id_token = ?4, refresh_token = ?5, expires_at = ?6, expires_in = ?7,
			scope = ?8, token_type = ?9, session_state = ?10, extra = ?11
		WHERE provider = ?1 AND provider_account_id = ?2`, args...)
	if err != nil {
		return dialect.Error("update account", err)
	}
	return oneRow(res, "update account")
}

// CreateSession stores s; ErrNotFound when its user does not exist.
func (a *Adapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	s = sqlstore.PrepareSession(s)
	args := append(dialect.SessionArgs(s), s.UserID)
	res, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_sessions (`+sqlstore.SessionColumns+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?)`, args...)
	if err != nil {
		return adapter.Session{}, dialect.Error("create session", err)
	}
	if err := oneRow(res, "create session: user"); err != nil {
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

// sessionQuery is the query of GetSessionAndUser.
const sessionQuery = `SELECT s.token, s.user_id, s.expires, s.created_at, ` + sqlstore.UserColumns + `
	FROM gatehouse_sessions s JOIN gatehouse_users u ON u.id = s.user_id
	WHERE s.token = ?`

// prepared returns the prepared sessionQuery, preparing it when needed.
func (a *Adapter) prepared(ctx context.Context) (*sql.Stmt, error) {
	if stmt := a.sessionStmt.Load(); stmt != nil {
		return stmt, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if stmt := a.sessionStmt.Load(); stmt != nil {
		return stmt, nil
	}
	stmt, err := a.db.PrepareContext(ctx, sessionQuery)
	if err != nil {
		return nil, err
	}
	a.sessionStmt.Store(stmt)
	return stmt, nil
}

// UpdateSession sets the session's expiry, and its UpdatedAt to now, and
// returns the session.
func (a *Adapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	row := a.db.QueryRowContext(ctx, `UPDATE gatehouse_sessions SET expires = ?, updated_at = ? WHERE token = ?
		RETURNING `+sqlstore.SessionColumns, stored.Time(expires).UnixMicro(), stored.Time(time.Now()).UnixMicro(), token)
	return dialect.ScanSession(row, "update session")
}

// DeleteSession removes the session and returns it as it was.
func (a *Adapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	row := a.db.QueryRowContext(ctx, `DELETE FROM gatehouse_sessions WHERE token = ?
		RETURNING `+sqlstore.SessionColumns, token)
	return dialect.ScanSession(row, "delete session")
}

// CreateVerificationToken stores t.
func (a *Adapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	_, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_verification_tokens (`+sqlstore.VerificationTokenColumns+`)
		VALUES (?, ?, ?)`, t.Identifier, t.TokenHash, stored.Time(t.Expires).UnixMicro())
	if err != nil {
		return dialect.Error("create verification token", err)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (a *Adapter) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	row := a.db.QueryRowContext(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = ? AND token_hash = ?
		RETURNING `+sqlstore.VerificationTokenColumns, identifier, tokenHash)
	return dialect.ScanVerificationToken(row)
}

// execer is what insertUser needs of a *sql.DB or *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertUser inserts u as it is.
func insertUser(ctx context.Context, db execer, u adapter.User) error {
	_, err := db.ExecContext(ctx, `INSERT INTO gatehouse_users (id, name, email, email_verified, image)
		VALUES (?, ?, NULLIF(?, ''), ?, ?)`, dialect.UserArgs(u)...)
	if err != nil {
		return dialect.Error("insert user", err)
	}
	return nil
}

// oneRow returns ErrNotFound when res affected no row.
func oneRow(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return dialect.Error(what, err)
	}
	if n == 0 {
		return dialect.NotFound(what)
	}
	return nil
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now (adapter.Sweeper).
func (a *Adapter) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	cut := stored.Time(now).UnixMicro()
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_sessions WHERE expires < ?`, cut)
	if err != nil {
		return 0, 0, dialect.Error("delete expired sessions", err)
	}
	n, _ := res.RowsAffected()
	res, err = a.db.ExecContext(ctx, `DELETE FROM gatehouse_verification_tokens WHERE expires < ?`, cut)
	if err != nil {
		return int(n), 0, dialect.Error("delete expired tokens", err)
	}
	m, _ := res.RowsAffected()
	return int(n), int(m), nil
}
