package postgres

import (
	"context"
	"embed"
	"fmt"
	"hash/fnv"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the shipped migrations in version order.
func migrations() ([]stored.Migration, error) {
	list, err := stored.Migrations(migrationFiles)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return list, nil
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
	list, err := migrations()
	if err != nil {
		return nil, err
	}
	tx, err := a.pool.Begin(ctx)
	if err != nil {
		return nil, dbError("migrate: begin", err)
	}
	defer tx.Rollback(ctx)
	var schema *string
	if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, dbError("migrate: current schema", err)
	}
	if schema == nil {
		return nil, fmt.Errorf("postgres: migrate: no schema of the search_path exists")
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(*schema)); err != nil {
		return nil, dbError("migrate: lock", err)
	}
	_, err = tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (
		version    integer NOT NULL PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`)
	if err != nil {
		return nil, dbError("migrate: create gatehouse_schema_version", err)
	}
	var current int
	err = tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM gatehouse_schema_version`).Scan(&current)
	if err != nil {
		return nil, dbError("migrate: read version", err)
	}
	var applied []string
	for _, m := range list {
		if m.Version <= current {
			continue
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return nil, dbError("migrate: "+m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`, m.Version); err != nil {
			return nil, dbError("migrate: record "+m.Name, err)
		}
		applied = append(applied, m.Name)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, dbError("migrate: commit", err)
	}
	return applied, nil
}
