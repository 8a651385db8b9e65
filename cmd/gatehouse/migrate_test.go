package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// migrationNames returns the file names of the migrations an adapter
// ships, read from its source folder, so that the tests follow new ones.
func migrationNames(t *testing.T, adapter string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "..", "adapter", adapter, "migrations", "*.sql"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations found for %s: %v", adapter, err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

// wantApplied checks that r lists every migration of names, in order.
func wantApplied(t *testing.T, r result, names []string) {
	t.Helper()
	var want strings.Builder
	for _, n := range names {
		want.WriteString("applied " + n + "\n")
	}
	if !strings.Contains(r.stdout, want.String()) {
		t.Errorf("stdout does not list the migrations %q in order:\n%s", names, r.stdout)
	}
}

func TestMigrateSQLite(t *testing.T) {
	t.Parallel()
	names := migrationNames(t, "sqlite")
	dir := t.TempDir()
	for _, tc := range []struct{ url, file string }{
		{filepath.Join(dir, "plain.db"), "plain.db"},
		{"file:" + filepath.Join(dir, "uri.db") + "?cache=private", "uri.db"},
		{"sqlite://" + filepath.Join(dir, "scheme.db"), "scheme.db"},
	} {
		r := runCLI(t, map[string]string{"DATABASE_URL": tc.url}, "migrate")
		r.want(t, exitOK, "SQLite ", fmt.Sprintf(": %d migration(s) applied.", len(names)))
		wantApplied(t, r, names)
		if _, err := os.Stat(filepath.Join(dir, tc.file)); err != nil {
			t.Errorf("DATABASE_URL=%s: the database is not at %s: %v", tc.url, tc.file, err)
		}
		// Again: nothing to do. The flag wins over the environment.
		again := runCLI(t, map[string]string{"DATABASE_URL": "elsewhere.db"}, "migrate", "-database-url", tc.url)
		again.want(t, exitOK, "is up to date: no migration to apply.")
		if strings.Contains(again.stdout, "applied") {
			t.Errorf("second run applied migrations again:\n%s", again.stdout)
		}
	}
}

func TestMigrateUsage(t *testing.T) {
	t.Parallel()
	for url, msg := range map[string]string{
		"":                          "DATABASE_URL is not set",
		"mysql://u@localhost/app":   `scheme "mysql" is not supported`,
		":memory:":                  "in-memory SQLite database",
		"sqlite://":                 "names no file",
		"postgres://%zz@localhost/": "not a valid PostgreSQL URL",
	} {
		r := runCLI(t, map[string]string{"DATABASE_URL": url}, "migrate")
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, msg) {
			t.Errorf("DATABASE_URL=%q: stderr %q lacks %q", url, r.stderr, msg)
		}
	}
}

// TestMigratePostgresFailure checks that a database that cannot be
// reached gives exit code 1 and that the message never shows the
// password, from the URL's user part or its query.
func TestMigratePostgresFailure(t *testing.T) {
	t.Parallel()
	port := deadPort(t)
	url := "postgres://app:pw-in-userinfo@" + port + "/app?sslmode=disable&connect_timeout=5&sslpassword=pw-in-query"
	r := runCLI(t, map[string]string{"DATABASE_URL": url}, "migrate")
	r.want(t, exitProblem)
	if want := "gatehouse migrate: PostgreSQL postgres://app@" + port + "/app: "; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q does not start with %q", r.stderr, want)
	}
	r.never(t, "pw-in-userinfo", "pw-in-query")
}

// deadPort returns a loopback host:port where nothing listens.
func deadPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// postgresURL returns the test server's URL (GATEHOUSE_TEST_POSTGRES, as
// the adapter's tests, else the local server) with the search_path set
// to a new schema, dropped at clean-up.
func postgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("GATEHOUSE_TEST_POSTGRES")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL cannot be reached: %v", err)
		}
		t.Skipf("PostgreSQL cannot be reached (set GATEHOUSE_TEST_POSTGRES, or CI to make this fail): %v", err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "gatehouse_cli_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

func TestMigratePostgres(t *testing.T) {
	t.Parallel()
	names := migrationNames(t, "postgres")
	url := postgresURL(t)
	r := runCLI(t, map[string]string{"DATABASE_URL": url}, "migrate")
	r.want(t, exitOK, "PostgreSQL postgres://", fmt.Sprintf(": %d migration(s) applied.", len(names)))
	wantApplied(t, r, names)

	// The tables are there, in the schema of the URL.
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var version int
	if err := conn.QueryRow(ctx, "SELECT MAX(version) FROM gatehouse_schema_version").Scan(&version); err != nil {
		t.Fatalf("no gatehouse_schema_version in the schema: %v", err)
	}
	if want, _ := strconv.Atoi(names[len(names)-1][:4]); version != want {
		t.Errorf("schema version %d after migrate, want %d", version, want)
	}

	runCLI(t, map[string]string{"DATABASE_URL": url}, "migrate").want(t, exitOK, "is up to date: no migration to apply.")
}
