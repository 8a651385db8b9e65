package sqlstore

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

// Schema is a dialect's migrations and its SQL for
// gatehouse_schema_version, the table that records those applied.
type Schema struct {
	// Files holds the migrations, migrations/NNNN_description.sql (see
	// stored.Migrations).
	Files fs.FS
	// CreateVersionTable creates gatehouse_schema_version if it does not
	// exist.
	CreateVersionTable string
	// InsertVersion records one migration; its arguments are
	// VersionArgs(version).
	InsertVersion string
	VersionArgs   func(version int) []any
}

// Migrations returns the migrations of s in version order.
func (d Dialect) Migrations(s Schema) ([]stored.Migration, error) {
	list, err := stored.Migrations(s.Files)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	return list, nil
}

// Migrate creates the version table when needed and applies, in tx, the
// migrations of s newer than the last one it records, recording each. It
// returns the file names of those it applied, in order. Locking, so that
// concurrent callers apply each migration once, and committing are the
// caller's.
func (d Dialect) Migrate(ctx context.Context, tx Querier, s Schema) ([]string, error) {
	list, err := d.Migrations(s)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, s.CreateVersionTable); err != nil {
		return nil, d.Error("migrate: create gatehouse_schema_version", err)
	}
	var current int
	err = tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM gatehouse_schema_version`).Scan(&current)
	if err != nil {
		return nil, d.Error("migrate: read version", err)
	}
	var applied []string
	for _, m := range list {
		if m.Version <= current {
			continue
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return nil, d.Error("migrate: "+m.Name, err)
		}
		if _, err := tx.Exec(ctx, s.InsertVersion, s.VersionArgs(m.Version)...); err != nil {
			return nil, d.Error("migrate: record "+m.Name, err)
		}
		applied = append(applied, m.Name)
	}
	return applied, nil
}
