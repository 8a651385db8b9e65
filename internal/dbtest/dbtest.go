// Package dbtest opens the SQL stores for the tests that run Gatehouse on
// them (the root package, admin, adapter/redisstore, internal/keyflow and
// internal/orgflow): a migrated SQLite database in a file, and, on the
// PostgreSQL test server, a schema of the test's own, so that parallel
// tests and runs do not collide.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
)

// DefaultPostgresDSN is the PostgreSQL test server used when GATEHOUSE_TEST_POSTGRES is not
// set: a local server with trust authentication.
const DefaultPostgresDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresDSN returns the PostgreSQL test server: GATEHOUSE_TEST_POSTGRES,
// or DefaultPostgresDSN.
func PostgresDSN() string {
	if dsn := os.Getenv("GATEHOUSE_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return DefaultPostgresDSN
}

// PostgresSchema creates a schema named prefix followed by random hex digits,
// dropped when the test ends, and returns it with a connection whose
// search_path is that schema (for reading and counting rows). Without a
// server the test fails when CI is set and is skipped otherwise.
func PostgresSchema(tb testing.TB, prefix string) (string, *pgx.Conn) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, PostgresDSN())
	if err == nil {
		err = conn.Ping(ctx)
	}
	if err != nil {
		unreachable(tb, err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := prefix + "_" + hex.EncodeToString(b[:])
	quoted := pgx.Identifier{schema}.Sanitize()
	for _, q := range []string{"CREATE SCHEMA " + quoted, "SET search_path TO " + quoted} {
		if _, err := conn.Exec(ctx, q); err != nil {
			conn.Close(context.Background())
			tb.Fatal(err)
		}
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+quoted+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
		conn.Close(ctx)
	})
	return schema, conn
}

// unreachable fails the test when CI is set and skips it otherwise,
// naming the server without its password.
func unreachable(tb testing.TB, err error) {
	tb.Helper()
	where := "the server of GATEHOUSE_TEST_POSTGRES"
	if u, perr := url.Parse(PostgresDSN()); perr == nil && u.Scheme != "" {
		where = u.Redacted()
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES): %v", where, err)
	}
	tb.Skipf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES, or CI to make this fail): %v", where, err)
}

// PostgresPool opens a pool of its own (one instance's) on schema, closed when
// the test ends. configure, when not nil, changes the pool's
// configuration first.
func PostgresPool(tb testing.TB, schema string, configure func(*pgxpool.Config)) *pgxpool.Pool {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(PostgresDSN())
	if err != nil {
		tb.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	if configure != nil {
		configure(cfg)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// Postgres returns one instance's adapter: a pool of its own on schema,
// migrated.
func Postgres(tb testing.TB, schema string) *postgres.Adapter {
	tb.Helper()
	return Migrated(tb, postgres.New(PostgresPool(tb, schema, nil)))
}

// SQLite returns a migrated SQLite adapter on the file path, closed when
// the test ends; path "" is a file in the test's temporary directory.
func SQLite(tb testing.TB, path string) *sqlite.Adapter {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "gatehouse.db")
	}
	a, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	return Migrated(tb, a)
}

// Migrated migrates a and returns it.
func Migrated[A interface{ Migrate(context.Context) error }](tb testing.TB, a A) A {
	tb.Helper()
	if err := a.Migrate(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return a
}
