package sqlstore

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

// Tx is the transaction a migration runs in, as an adapter speaks to it.
type Tx interface {
	Exec(ctx context.Context, query string, args ...any) error
	QueryRow(ctx context.Context, query string, args ...any) Row
}

// VersionTable is a dialect's SQL for gatehouse_schema_version, the table
// that records the migrations applied.
type VersionTable struct {
	// Create creates the table if it does not exist.
	Create string
	// Insert records one migration; its arguments are Args(version).
	Insert string
	Args   func(version int) []any
}

// Apply creates the version table when needed and applies, in tx, the
// migrations of list newer than the last one it records, recording each.
// It returns the file names of those it applied, in order. Locking, so
// that concurrent callers apply each migration once, is the caller's.
func (d Dialect) Apply(ctx context.Context, tx Tx, vt VersionTable, list []stored.Migration) ([]string, error) {
	if err := tx.Exec(ctx, vt.Create); err != nil {
		return nil, d.Error("migrate: create gatehouse_schema_version", err)
	}
	var current int
	err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM gatehouse_schema_version`).Scan(&current)
	if err != nil {
		return nil, d.Error("migrate: read version", err)
	}
	var applied []string
	for _, m := range list {
		if m.Version <= current {
			continue
		}
		if err := tx.Exec(ctx, m.SQL); err != nil {
			return nil, d.Error("migrate: "+m.Name, err)
		}
		if err := tx.Exec(ctx, vt.Insert, vt.Args(m.Version)...); err != nil {
			return nil, d.Error("migrate: record "+m.Name, err)
		}
		applied = append(applied, m.Name)
	}
	return applied, nil
}
