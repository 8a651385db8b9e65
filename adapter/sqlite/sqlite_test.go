package sqlite

import (
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/adaptertest"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqltest"
)

// openTemp opens and migrates a new database file in a temporary directory.
func openTemp(tb testing.TB) *Adapter {
	tb.Helper()
	return openMigrated(tb, filepath.Join(tb.TempDir(), "gatehouse.db"))
}

// openMigrated opens and migrates the database at path.
func openMigrated(tb testing.TB, path string) *Adapter {
	tb.Helper()
	a, err := Open(tb.Context(), path)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { a.Close() })
	if err := a.Migrate(tb.Context()); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return a
}

func TestConformance(t *testing.T) {
	adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
		return openTemp(t)
	})
}

func TestConformanceInMemory(t *testing.T) {
	adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
		return openMigrated(t, ":memory:")
	})
}

// TestConformanceNewWithoutForeignKeys runs the suite through New on a
// database opened with only a busy timeout: no foreign keys enforced, no
// write-ahead log, deferred transactions. The adapter must not depend on
// those settings for its semantics.
func TestConformanceNewWithoutForeignKeys(t *testing.T) {
	adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
		path := filepath.Join(t.TempDir(), "plain.db")
		db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatalf("sql.Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		a := New(db)
		if err := a.Migrate(t.Context()); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		return a
	})
}

func TestOpenSettings(t *testing.T) {
	a := openTemp(t)
	ctx := t.Context()
	// Check every connection of the pool, not just one: hold several.
	var conns []*sql.Conn
	for range 3 {
		c, err := a.db.Conn(ctx)
		if err != nil {
			t.Fatalf("Conn: %v", err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		var mode string
		var busy, fk int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || busy != int(BusyTimeout.Milliseconds()) || fk != 1 {
			t.Errorf("connection %d: journal_mode=%s busy_timeout=%d foreign_keys=%d; want wal, %d, 1",
				i, mode, busy, fk, BusyTimeout.Milliseconds())
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestReopen(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "gatehouse.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := a.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	verified := time.Date(2025, 1, 2, 3, 4, 5, 678_901_234, time.UTC)
	u, err := a.CreateUserWithAccount(ctx,
		adapter.User{Name: "Ada", Email: "ada@example.com", EmailVerified: &verified},
		account.Account{Type: account.TypeOAuth, Provider: "github", ProviderAccountID: "1",
			TokenSet: account.TokenSet{AccessToken: "at", Extra: map[string]any{"k": "v"}}})
	if err != nil {
		t.Fatalf("CreateUserWithAccount: %v", err)
	}
	expires := time.Date(2025, 2, 3, 4, 5, 6, 789_000_000, time.UTC)
	if _, err := a.CreateSession(ctx, adapter.Session{Token: "s", UserID: u.ID, Expires: expires}); err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	vt := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "h", Expires: expires}
	if err := a.CreateVerificationToken(ctx, vt); err != nil {
		t.Fatalf("CreateVerificationToken: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	b, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer b.Close()
	if err := b.Migrate(ctx); err != nil {
		t.Fatalf("Migrate again: %v", err)
	}
	s, got, err := b.GetSessionAndUser(ctx, "s")
	if err != nil {
		t.Fatalf("GetSessionAndUser after reopening: %v", err)
	}
	if got.ID != u.ID || got.Email != "ada@example.com" || got.EmailVerified == nil ||
		!got.EmailVerified.Equal(verified.Truncate(time.Microsecond)) {
		t.Errorf("user after reopening = %+v", got)
	}
	if !s.Expires.Equal(expires) || s.UserID != u.ID {
		t.Errorf("session after reopening = %+v", s)
	}
	acc, err := b.GetAccount(ctx, "github", "1")
	if err != nil {
		t.Fatalf("GetAccount after reopening: %v", err)
	}
	if acc.UserID != u.ID || acc.AccessToken != "at" || acc.Extra["k"] != "v" {
		t.Errorf("account after reopening = %+v", acc)
	}
	if _, err := b.UseVerificationToken(ctx, "ada@example.com", "h"); err != nil {
		t.Errorf("UseVerificationToken after reopening: %v", err)
	}
	var version int
	if err := b.db.QueryRowContext(ctx, "SELECT MAX(version) FROM gatehouse_schema_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	list := sqltest.Migrations(t, dialect, migrations)
	if want := list[len(list)-1].Version; version != want {
		t.Errorf("schema version %d, want %d", version, want)
	}
}

func TestMigrateConcurrently(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "gatehouse.db")
	// Several adapters, as if of several processes, on the same file.
	const n = 8
	adapters := make([]*Adapter, n)
	for i := range adapters {
		a, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer a.Close()
		adapters[i] = a
	}
	sqltest.MigrateConcurrently(t, adapters)
	var rows int
	if err := adapters[0].db.QueryRowContext(ctx, "SELECT COUNT(*) FROM gatehouse_schema_version").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	list := sqltest.Migrations(t, dialect, migrations)
	if rows != len(list) {
		t.Errorf("gatehouse_schema_version has %d rows, want %d", rows, len(list))
	}
}

func TestNotMigrated(t *testing.T) {
	a, err := Open(t.Context(), filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer a.Close()
	_, err = a.GetUser(t.Context(), "x")
	if err == nil || errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetUser on a database without tables = %v, want a plain error", err)
	}
	_, _, err = a.GetSessionAndUser(t.Context(), "x")
	if err == nil || errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetSessionAndUser on a database without tables = %v, want a plain error", err)
	}
	// The failure to prepare the session query is not kept.
	if err := a.Migrate(t.Context()); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	_, _, err = a.GetSessionAndUser(t.Context(), "x")
	if !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetSessionAndUser after Migrate = %v, want ErrNotFound", err)
	}
}

func TestDSN(t *testing.T) {
	for path, want := range map[string]string{
		"a.db":          "a.db?_pragma=busy_timeout%2810000%29&_pragma=foreign_keys%281%29&_pragma=journal_mode%28WAL%29&_txlock=immediate",
		"file:a.db?x=1": "file:a.db?x=1&_pragma=busy_timeout%2810000%29&_pragma=foreign_keys%281%29&_pragma=journal_mode%28WAL%29&_txlock=immediate",
		":memory:":      ":memory:?_pragma=busy_timeout%2810000%29&_pragma=foreign_keys%281%29&_txlock=immediate",
	} {
		if got := DSN(path); got != want {
			t.Errorf("DSN(%q) = %q, want %q", path, got, want)
		}
	}
}

func BenchmarkGetSessionAndUser(b *testing.B) {
	sqltest.BenchmarkGetSessionAndUser(b, openTemp(b))
}

// TestMigrateReport runs sqltest.MigrateReport on files of their own.
func TestMigrateReport(t *testing.T) {
	list := sqltest.Migrations(t, dialect, migrations)
	open := func(t *testing.T, path string) *Adapter {
		a, err := Open(t.Context(), path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	sqltest.MigrateReport(t, list, sqltest.Databases[*Adapter]{
		New: func(t *testing.T) *Adapter {
			return open(t, filepath.Join(t.TempDir(), "gatehouse.db"))
		},
		Behind: func(t *testing.T) *Adapter {
			ctx := t.Context()
			a := open(t, filepath.Join(t.TempDir(), "gatehouse.db"))
			if _, err := a.db.ExecContext(ctx, `CREATE TABLE gatehouse_schema_version (
				version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
				t.Fatal(err)
			}
			for _, m := range list[:len(list)-1] {
				if _, err := a.db.ExecContext(ctx, m.SQL); err != nil {
					t.Fatalf("%s: %v", m.Name, err)
				}
				if _, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_schema_version VALUES (?, 0)`, m.Version); err != nil {
					t.Fatal(err)
				}
			}
			return a
		},
		Shared: func(t *testing.T) func() *Adapter {
			path := filepath.Join(t.TempDir(), "gatehouse.db")
			return func() *Adapter { return open(t, path) }
		},
	})
}

// TestSessionBeforeMetadata: a session stored before migration 0006 (no
// created_at, updated_at, user_agent) keeps working after it.
func TestSessionBeforeMetadata(t *testing.T) {
	ctx := t.Context()
	list := sqltest.Migrations(t, dialect, migrations)
	a, err := Open(ctx, filepath.Join(t.TempDir(), "gatehouse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.db.ExecContext(ctx, `CREATE TABLE gatehouse_schema_version (
		version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range list[:5] { // up to 0005, the release before
		if _, err := a.db.ExecContext(ctx, m.SQL); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if _, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_schema_version VALUES (?, 0)`, m.Version); err != nil {
			t.Fatal(err)
		}
	}
	expires := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)
	if _, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_users (id) VALUES ('u1')`); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_sessions (token, user_id, expires) VALUES ('old', 'u1', ?)`, expires.UnixMicro()); err != nil {
		t.Fatal(err)
	}
	if got, err := a.MigrateReport(ctx); err != nil || len(got) == 0 || got[0] != "0006_accounts_metadata.sql" {
		t.Fatalf("MigrateReport = %q, %v; want 0006 applied first", got, err)
	}
	sqltest.SessionBeforeMetadata(t, a, "u1", "old", expires)
}
