package sqlite

import (
	"context"
	"embed"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the migrations the package ships, and
// gatehouse_schema_version on SQLite, where applied_at is INTEGER
// microseconds since the epoch, given by the migrating process.
var migrations = sqlstore.Schema{
	Files: migrationFiles,
	CreateVersionTable: `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (
		version    INTEGER NOT NULL PRIMARY KEY,
		applied_at INTEGER NOT NULL
	)`,
	InsertVersion: `INSERT INTO gatehouse_schema_version (version, applied_at) VALUES (?, ?)`,
	VersionArgs:   func(version int) []any { return []any{version, time.Now().UnixMicro()} },
}

// Migrate creates the tables, or brings them up to date, applying the
// migrations the package ships that the database has not seen. The
// version applied is kept in gatehouse_schema_version. It runs in one
// IMMEDIATE transaction, so concurrent calls, from this process or
// another, wait for each other and apply each migration once. It is safe
// to call on every start.
func (a *Adapter) Migrate(ctx context.Context) error {
	_, err := a.MigrateReport(ctx)
	return err
}

// MigrateReport is Migrate, returning also the file names of the
// migrations it applied (such as "0002_authenticators.sql"), in the order
// it applied them: none when the database was up to date. On error it
// returns nil, since the transaction applied nothing.
func (a *Adapter) MigrateReport(ctx context.Context) (applied []string, err error) {
	conn, err := a.db.Conn(ctx)
	if err != nil {
		return nil, dialect.Error("migrate", err)
	}
	defer conn.Close()
	// A database opened without a busy timeout (New on the caller's own
	// *sql.DB) fails concurrent writes at once with SQLITE_BUSY: say so
	// now, at start-up, rather than under load.
	var busy int
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
		return nil, dialect.Error("migrate: busy_timeout", err)
	}
	if busy <= 0 {
		return nil, errors.New("sqlite: the database has no busy timeout, so concurrent writes would fail with SQLITE_BUSY: open it with sqlite.DSN(path), or add _pragma=busy_timeout(5000) and _pragma=journal_mode(WAL) to its data source name")
	}
	// BEGIN IMMEDIATE takes the write lock before reading the version, so
	// two migrators cannot both decide to apply the same migration, and
	// neither fails upgrading a read lock. database/sql's BeginTx would
	// use the connection's default, which a caller of New controls.
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, dialect.Error("migrate: begin", err)
	}
	defer func() {
		if err != nil {
			conn.ExecContext(context.Background(), "ROLLBACK")
		}
	}()
	applied, err = dialect.Migrate(ctx, sqlstore.SQL(conn), migrations)
	if err != nil {
		return nil, err
	}
	if _, err = conn.ExecContext(ctx, "COMMIT"); err != nil {
		return nil, dialect.Error("migrate: commit", err)
	}
	return applied, nil
}
