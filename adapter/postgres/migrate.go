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
	list, err := migrations()
	if err != nil {
		return err
	}
	tx, err := a.pool.Begin(ctx)
	if err != nil {
		return dbError("migrate: begin", err)
	}
	defer tx.Rollback(ctx)
	var schema *string
	if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return dbError("migrate: current schema", err)
	}
	if schema == nil {
		return fmt.Errorf("postgres: migrate: no schema of the search_path exists")
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(*schema)); err != nil {
		return dbError("migrate: lock", err)
	}
	_, err = tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (
		version    integer NOT NULL PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`)
	if err != nil {
		return dbError("migrate: create gatehouse_schema_version", err)
	}
	var current int
	err = tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM gatehouse_schema_version`).Scan(&current)
	if err != nil {
		return dbError("migrate: read version", err)
	}
	for _, m := range list {
		if m.Version <= current {
			continue
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return dbError("migrate: "+m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`, m.Version); err != nil {
			return dbError("migrate: record "+m.Name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return dbError("migrate: commit", err)
	}
	return nil
}
