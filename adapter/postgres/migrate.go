package postgres

import (
	"context"
	"embed"
	"fmt"
	"hash/fnv"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the migrations the package ships, and
// gatehouse_schema_version on PostgreSQL, where the server's clock records
// when a migration was applied.
var migrations = sqlstore.Schema{
	Files: migrationFiles,
	CreateVersionTable: `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (
		version    integer NOT NULL PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`,
	InsertVersion: `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`,
	VersionArgs:   func(version int) []any { return []any{version} },
}

// lockKey returns the advisory lock key Migrate holds for a schema, so
// that migrations of different schemas do not wait for each other.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("gatehouse migrate\x00" + schema))
	return int64(h.Sum64())
}

// Migrate creates the tables, or brings them up to date, applying the
// migrations the package ships that the database has not seen, in the
// first schema of the search_path. The version applied is kept in
// gatehouse_schema_version. Everything runs in one transaction holding an
// advisory lock, so concurrent calls, from this process or another, wait
// for each other and apply each migration once; a failed migration leaves
// nothing behind. It is safe to call on every start.
func (a *Adapter) Migrate(ctx context.Context) error {
	_, err := a.MigrateReport(ctx)
	return err
}

// MigrateReport is Migrate, returning also the file names of the
// migrations it applied (such as "0002_authenticators.sql"), in the order
// it applied them: none when the database was up to date. On error it
// returns nil, since the transaction applied nothing.
func (a *Adapter) MigrateReport(ctx context.Context) ([]string, error) {
	tx, err := a.pool.Begin(ctx)
	if err != nil {
		return nil, dialect.Error("migrate: begin", err)
	}
	defer tx.Rollback(ctx)
	var schema *string
	if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, dialect.Error("migrate: current schema", err)
	}
	if schema == nil {
		return nil, fmt.Errorf("postgres: migrate: no schema of the search_path exists")
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(*schema)); err != nil {
		return nil, dialect.Error("migrate: lock", err)
	}
	applied, err := dialect.Migrate(ctx, pgxQueries{tx}, migrations)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, dialect.Error("migrate: commit", err)
	}
	return applied, nil
}
