package sqlstore_test

import (
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	_ "modernc.org/sqlite" // the driver "sqlite" the SQLite adapter uses

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

// testDialect is a Dialect with what Migrations and Error need.
var testDialect = sqlstore.Dialect{Name: "test", ErrNoRows: sql.ErrNoRows, Kind: func(error) error { return nil }}

// TestDialectMigrations: every migration file of each adapter is found,
// in version order, versions 1, 2, ... without a gap.
func TestDialectMigrations(t *testing.T) {
	for _, dir := range []string{"../../sqlite", "../../postgres"} {
		fsys := os.DirFS(dir)
		files, err := fs.Glob(fsys, "migrations/*.sql")
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no migration files: %v", dir, err)
		}
		list, err := testDialect.Migrations(sqlstore.Schema{Files: fsys})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var names []string
		for i, m := range list {
			names = append(names, "migrations/"+m.Name)
			if m.Version != i+1 || strings.TrimSpace(m.SQL) == "" {
				t.Errorf("%s: migration %d is %s, version %d, %d bytes", dir, i, m.Name, m.Version, len(m.SQL))
			}
		}
		if !slices.Equal(names, files) {
			t.Errorf("%s: Migrations found %q, want %q", dir, names, files)
		}
	}
	bad := fstest.MapFS{"migrations/one.sql": {Data: []byte("SELECT 1")}}
	if _, err := testDialect.Migrations(sqlstore.Schema{Files: bad}); err == nil || !strings.HasPrefix(err.Error(), "test: ") {
		t.Errorf("Migrations of a malformed name = %v; want an error naming the dialect", err)
	}
}

// openMemory returns an in-memory SQLite database as a DB. One
// connection: each connection to ":memory:" is a database of its own.
func openMemory(t *testing.T) (sqlstore.DB, *sql.DB) {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	q := sqlstore.SQLDB(db)
	if _, err := q.Exec(t.Context(), `CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return q, db
}

// values returns the rows of t, ordered by k, as "k=v".
func values(t *testing.T, q sqlstore.Querier) []string {
	t.Helper()
	rows, err := q.Query(t.Context(), `SELECT k, v FROM t ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		var v int
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, k+"="+strconv.Itoa(v))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSQLDB(t *testing.T) {
	ctx := t.Context()
	q, _ := openMemory(t)
	for _, k := range []string{"a", "b", "c"} {
		if n, err := q.Exec(ctx, `INSERT INTO t (k, v) VALUES ($1, $2)`, k, 1); err != nil || n != 1 {
			t.Fatalf("insert %s: %d rows, %v", k, n, err)
		}
	}
	if n, err := q.Exec(ctx, `UPDATE t SET v = 2 WHERE k <> $1`, "a"); err != nil || n != 2 {
		t.Errorf("UPDATE of two rows: %d rows, %v", n, err)
	}
	if n, err := q.Exec(ctx, `DELETE FROM t WHERE k = $1`, "none"); err != nil || n != 0 {
		t.Errorf("DELETE of no row: %d rows, %v", n, err)
	}
	if _, err := q.Exec(ctx, `INSERT INTO t (k, v) VALUES ($1, $2)`, "a", 1); err == nil {
		t.Error("a duplicate key was inserted")
	}
	if got := values(t, q); !slices.Equal(got, []string{"a=1", "b=2", "c=2"}) {
		t.Errorf("rows %q", got)
	}
	var v int
	if err := q.QueryRow(ctx, `SELECT v FROM t WHERE k = $1`, "b").Scan(&v); err != nil || v != 2 {
		t.Errorf("QueryRow = %d, %v; want 2", v, err)
	}
	err := q.QueryRow(ctx, `SELECT v FROM t WHERE k = $1`, "none").Scan(&v)
	if !errors.Is(err, sql.ErrNoRows) || !errors.Is(testDialect.Error("get", err), adapter.ErrNotFound) {
		t.Errorf("QueryRow of no row: %v; want sql.ErrNoRows, adapter.ErrNotFound through the Dialect", err)
	}
	if _, err := q.Query(ctx, `SELECT nothing FROM nowhere`); err == nil {
		t.Error("Query of a missing table succeeded")
	}
}

func TestTransactions(t *testing.T) {
	ctx := t.Context()
	q, _ := openMemory(t)
	if _, err := q.Exec(ctx, `INSERT INTO t (k, v) VALUES ('a', 1)`); err != nil {
		t.Fatal(err)
	}

	tx, err := q.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := tx.Exec(ctx, `INSERT INTO t (k, v) VALUES ('b', 2)`); err != nil || n != 1 {
		t.Fatalf("insert in tx: %d, %v", n, err)
	}
	if n, err := tx.Exec(ctx, `DELETE FROM t WHERE k = 'a'`); err != nil || n != 1 {
		t.Fatalf("delete in tx: %d, %v", n, err)
	}
	if got := values(t, tx); !slices.Equal(got, []string{"b=2"}) {
		t.Errorf("inside the transaction: %q", got)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if got := values(t, q); !slices.Equal(got, []string{"a=1"}) {
		t.Errorf("after Rollback: %q; want the transaction undone", got)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Error("Commit after Rollback succeeded")
	}

	tx, err = q.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE t SET v = 3 WHERE k = 'a'`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := values(t, q); !slices.Equal(got, []string{"a=3"}) {
		t.Errorf("after Commit: %q; want the update kept", got)
	}
	if err := tx.Rollback(ctx); err == nil {
		t.Error("Rollback after Commit succeeded")
	}
}

// TestSQLConn: SQL makes a Querier of a connection.
func TestSQLConn(t *testing.T) {
	ctx := t.Context()
	_, db := openMemory(t)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := sqlstore.SQL(conn)
	if n, err := q.Exec(ctx, `INSERT INTO t (k, v) VALUES ($1, $2), ($3, $4)`, "x", 4, "y", 5); err != nil || n != 2 {
		t.Errorf("insert of two rows: %d, %v", n, err)
	}
	if got := values(t, q); !slices.Equal(got, []string{"x=4", "y=5"}) {
		t.Errorf("rows %q", got)
	}
}

// TestMigrate: a new database gets every migration, recorded; a second
// run applies nothing; a newer file alone is applied later; a failing
// migration is named in the error.
func TestMigrate(t *testing.T) {
	ctx := t.Context()
	q, _ := openMemory(t)
	files := fstest.MapFS{
		"migrations/0001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER)`)},
		"migrations/0002_b.sql": {Data: []byte(`CREATE TABLE b (x INTEGER)`)},
	}
	schema := sqlstore.Schema{
		Files:              files,
		CreateVersionTable: `CREATE TABLE IF NOT EXISTS gatehouse_schema_version (version INTEGER PRIMARY KEY)`,
		InsertVersion:      `INSERT INTO gatehouse_schema_version (version) VALUES ($1)`,
		VersionArgs:        func(v int) []any { return []any{v} },
	}
	migrate := func() ([]string, error) {
		tx, err := q.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		applied, err := testDialect.Migrate(ctx, tx, schema)
		if err != nil {
			tx.Rollback(ctx)
			return nil, err
		}
		return applied, tx.Commit(ctx)
	}
	if got, err := migrate(); err != nil || !slices.Equal(got, []string{"0001_a.sql", "0002_b.sql"}) {
		t.Fatalf("first Migrate = %q, %v", got, err)
	}
	if got, err := migrate(); err != nil || len(got) != 0 {
		t.Errorf("second Migrate = %q, %v; want nothing", got, err)
	}
	files["migrations/0003_c.sql"] = &fstest.MapFile{Data: []byte(`INSERT INTO a (x) VALUES (7)`)}
	if got, err := migrate(); err != nil || !slices.Equal(got, []string{"0003_c.sql"}) {
		t.Errorf("Migrate with a new file = %q, %v", got, err)
	}
	var x, version int
	if err := q.QueryRow(ctx, `SELECT x, (SELECT MAX(version) FROM gatehouse_schema_version) FROM a`).Scan(&x, &version); err != nil || x != 7 || version != 3 {
		t.Errorf("after Migrate: x %d, version %d, %v", x, version, err)
	}
	files["migrations/0004_bad.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE a (x INTEGER)`)}
	if got, err := migrate(); err == nil || !strings.Contains(err.Error(), "0004_bad.sql") {
		t.Errorf("Migrate with a failing file = %q, %v; want an error naming it", got, err)
	}
	if err := q.QueryRow(ctx, `SELECT MAX(version) FROM gatehouse_schema_version`).Scan(&version); err != nil || version != 3 {
		t.Errorf("after a failed Migrate, version %d, %v; want 3", version, err)
	}
}
