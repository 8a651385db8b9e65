package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/adaptertest"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqltest"
)

// defaultDSN is the test server used when GATEHOUSE_TEST_POSTGRES is not set.
const defaultDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// serverName names the test server in messages, without a password.
func serverName() string {
	u, err := url.Parse(testDSN())
	if err != nil || u.Scheme == "" {
		return "the server of GATEHOUSE_TEST_POSTGRES"
	}
	return u.Redacted()
}

// testDSN returns the connection string of the test server.
func testDSN() string {
	if dsn := os.Getenv("GATEHOUSE_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return defaultDSN
}

var (
	reachOnce sync.Once
	reachErr  error
)

// requireServer fails the test when the server cannot be reached and CI is
// set, and skips it otherwise.
func requireServer(tb testing.TB) {
	tb.Helper()
	reachOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, testDSN())
		if err != nil {
			reachErr = err
			return
		}
		reachErr = conn.Ping(ctx)
		conn.Close(ctx)
	})
	if reachErr == nil {
		return
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES): %v", serverName(), reachErr)
	}
	tb.Skipf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES, or CI to make this fail): %v", serverName(), reachErr)
}

// newSchema creates a schema of its own for the test, dropped at clean-up,
// and returns its name.
func newSchema(tb testing.TB) string {
	tb.Helper()
	requireServer(tb)
	var b [8]byte
	rand.Read(b[:])
	schema := "gatehouse_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testDSN())
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, testDSN())
		if err != nil {
			tb.Errorf("connect to drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// newPool returns a pool whose connections use schema, closed at clean-up.
func newPool(tb testing.TB, schema string) *pgxpool.Pool {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(testDSN())
	if err != nil {
		tb.Fatalf("parse DSN: %v", err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("pool: %v", err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// newAdapter returns a migrated adapter on a schema of its own.
func newAdapter(tb testing.TB) *Adapter {
	tb.Helper()
	a := New(newPool(tb, newSchema(tb)))
	if err := a.Migrate(context.Background()); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return a
}

func TestConformance(t *testing.T) {
	requireServer(t)
	adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
		return newAdapter(t)
	})
}

func TestOpen(t *testing.T) {
	requireServer(t)
	a, err := Open(t.Context(), testDSN())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	a.Close()

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := Open(ctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"); err == nil {
		t.Error("Open of a closed port succeeded")
	}
	if _, err := Open(ctx, "::not a dsn::"); err == nil {
		t.Error("Open of a malformed connection string succeeded")
	}
}

func TestMigrateConcurrently(t *testing.T) {
	schema := newSchema(t)
	// Several pools, as if of several processes, on the same schema.
	const n = 6
	adapters := make([]*Adapter, n)
	for i := range adapters {
		adapters[i] = New(newPool(t, schema))
	}
	sqltest.MigrateConcurrently(t, adapters)
	var rows int
	if err := adapters[0].pool.QueryRow(t.Context(), "SELECT COUNT(*) FROM gatehouse_schema_version").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	list := sqltest.Migrations(t, dialect, migrations)
	if rows != len(list) {
		t.Errorf("gatehouse_schema_version has %d rows, want %d", rows, len(list))
	}
	// The tables are in the test's schema, not in public.
	var where string
	err := adapters[0].pool.QueryRow(t.Context(),
		"SELECT table_schema FROM information_schema.tables WHERE table_name = 'gatehouse_users' AND table_schema = $1", schema).Scan(&where)
	if err != nil {
		t.Errorf("gatehouse_users not found in schema %s: %v", schema, err)
	}
}

func TestMigrateWithoutSchema(t *testing.T) {
	requireServer(t)
	pool := newPool(t, "gatehouse_no_such_schema")
	err := New(pool).Migrate(t.Context())
	if err == nil {
		t.Fatal("Migrate with a search_path naming no existing schema succeeded")
	}
}

func TestNotMigrated(t *testing.T) {
	a := New(newPool(t, newSchema(t)))
	_, err := a.GetUser(t.Context(), "x")
	if err == nil || errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetUser on a schema without tables = %v, want a plain error", err)
	}
}

func TestExtraStoredAsJSONB(t *testing.T) {
	a := newAdapter(t)
	ctx := t.Context()
	_, err := a.CreateUserWithAccount(ctx, adapter.User{}, account.Account{
		Type: account.TypeOAuth, Provider: "p", ProviderAccountID: "1",
		TokenSet: account.TokenSet{Extra: map[string]any{"refresh_token_expires_at": 1742566166.0}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var v float64
	err = a.pool.QueryRow(ctx, `SELECT (extra->>'refresh_token_expires_at')::float8 FROM gatehouse_accounts`).Scan(&v)
	if err != nil || v != 1742566166 {
		t.Errorf("extra->>'refresh_token_expires_at' = %v, %v", v, err)
	}
}

func BenchmarkGetSessionAndUser(b *testing.B) {
	sqltest.BenchmarkGetSessionAndUser(b, newAdapter(b))
}

// TestMigrateReport runs sqltest.MigrateReport on schemas of their own.
func TestMigrateReport(t *testing.T) {
	list := sqltest.Migrations(t, dialect, migrations)
	sqltest.MigrateReport(t, list, sqltest.Databases[*Adapter]{
		New: func(t *testing.T) *Adapter {
			return New(newPool(t, newSchema(t)))
		},
		Behind: func(t *testing.T) *Adapter {
			ctx := t.Context()
			pool := newPool(t, newSchema(t))
			if _, err := pool.Exec(ctx, `CREATE TABLE gatehouse_schema_version (
				version integer NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
				t.Fatal(err)
			}
			for _, m := range list[:len(list)-1] {
				if _, err := pool.Exec(ctx, m.SQL); err != nil {
					t.Fatalf("%s: %v", m.Name, err)
				}
				if _, err := pool.Exec(ctx, `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`, m.Version); err != nil {
					t.Fatal(err)
				}
			}
			return New(pool)
		},
		Shared: func(t *testing.T) func() *Adapter {
			schema := newSchema(t)
			return func() *Adapter { return New(newPool(t, schema)) }
		},
	})
}

// TestSessionBeforeMetadata: a session stored before migration 0005 (no
// created_at, updated_at, user_agent) keeps working after it.
func TestSessionBeforeMetadata(t *testing.T) {
	ctx := t.Context()
	list := sqltest.Migrations(t, dialect, migrations)
	pool := newPool(t, newSchema(t))
	if _, err := pool.Exec(ctx, `CREATE TABLE gatehouse_schema_version (
		version integer NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range list[:4] { // up to 0004, the release before
		if _, err := pool.Exec(ctx, m.SQL); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`, m.Version); err != nil {
			t.Fatal(err)
		}
	}
	expires := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)
	if _, err := pool.Exec(ctx, `INSERT INTO gatehouse_users (id) VALUES ('u1')`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO gatehouse_sessions (token, user_id, expires) VALUES ('old', 'u1', $1)`, expires); err != nil {
		t.Fatal(err)
	}
	a := New(pool)
	if got, err := a.MigrateReport(ctx); err != nil || len(got) == 0 || got[0] != "0005_accounts_metadata.sql" {
		t.Fatalf("MigrateReport = %q, %v; want 0005 applied first", got, err)
	}
	sqltest.SessionBeforeMetadata(t, a, "u1", "old", expires)
}
