package postgres

import (
	"context"
	"embed"
	"fmt"
	"hash/fnv"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the shipped migrations in order. A file is named
// NNNN_description.sql; NNNN is its version.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var list []migration
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, ok := strings.Cut(base, "_")
		if !ok {
			return nil, fmt.Errorf("postgres: migration %s: name is not NNNN_description.sql", base)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("postgres: migration %s: name is not NNNN_description.sql", base)
		}
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		list = append(list, migration{version: v, name: base, sql: string(body)})
	}
	slices.SortFunc(list, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(list); i++ {
		if list[i].version == list[i-1].version {
			return nil, fmt.Errorf("postgres: migrations %s and %s have the same version", list[i-1].name, list[i].name)
		}
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
		if m.version <= current {
			continue
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return dbError("migrate: "+m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`, m.version); err != nil {
			return dbError("migrate: record "+m.name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return dbError("migrate: commit", err)
	}
	return nil
}
