package sqlite

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
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
			return nil, fmt.Errorf("sqlite: migration %s: name is not NNNN_description.sql", base)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("sqlite: migration %s: name is not NNNN_description.sql", base)
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
			return nil, fmt.Errorf("sqlite: migrations %s and %s have the same version", list[i-1].name, list[i].name)
		}
	}
	return list, nil
}

// Migrate creates the tables, or brings them up to date, applying the
// migrations the package ships that the database has not seen. The
// version applied is kept in gatehouse_schema_version. It runs in one
// IMMEDIATE transaction, so concurrent calls, from this process or
// another, wait for each other and apply each migration once. It is safe
// to call on every start.
func (a *Adapter) Migrate(ctx context.Context) (err error) {
	list, err := migrations()
	if err != nil {
		return err
	}
	conn, err := a.db.Conn(ctx)
	if err != nil {
		return dbError("migrate", err)
	}
	defer conn.Close()
	// BEGIN IMMEDIATE takes the write lock before reading the version, so
	// two migrators cannot both decide to apply the same migration, and
	// neither fails upgrading a read lock. database/sql's BeginTx would
	// use the connection's default, which a caller of New controls.
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return dbError("migrate: begin", err)
	}
	defer func() {
		if err != nil {
			conn.ExecContext(context.Background(), "ROLLBACK")
		}
	}()
	_, err = conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (
		version    INTEGER NOT NULL PRIMARY KEY,
		applied_at INTEGER NOT NULL
	)`)
	if err != nil {
		return dbError("migrate: create gatehouse_schema_version", err)
	}
	var current int
	err = conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM gatehouse_schema_version`).Scan(&current)
	if err != nil {
		return dbError("migrate: read version", err)
	}
	for _, m := range list {
		if m.version <= current {
			continue
		}
		if _, err = conn.ExecContext(ctx, m.sql); err != nil {
			return dbError("migrate: "+m.name, err)
		}
		_, err = conn.ExecContext(ctx, `INSERT INTO gatehouse_schema_version (version, applied_at) VALUES (?, ?)`,
			m.version, time.Now().UnixMicro())
		if err != nil {
			return dbError("migrate: record "+m.name, err)
		}
	}
	if _, err = conn.ExecContext(ctx, "COMMIT"); err != nil {
		return dbError("migrate: commit", err)
	}
	return nil
}
