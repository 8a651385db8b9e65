package dbtest

import (
	"context"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// TestPostgresSchema: each test gets a schema of its own, migrated
// through a pool of its own and seen from the returned connection, and
// the schema is dropped when the test ends.
func TestPostgresSchema(t *testing.T) {
	var schema, other string
	t.Run("schema", func(t *testing.T) {
		s, c := PostgresSchema(t, "gatehouse_dbtest")
		other, _ = PostgresSchema(t, "gatehouse_dbtest")
		schema = s
		if s == other || !strings.HasPrefix(s, "gatehouse_dbtest_") {
			t.Fatalf("schemas %q and %q", s, other)
		}
		Postgres(t, s)
		var n int
		if err := c.QueryRow(context.Background(), "SELECT count(*) FROM gatehouse_users").Scan(&n); err != nil || n != 0 {
			t.Fatalf("the migrated users table on the connection: %d, %v", n, err)
		}
	})
	if schema == "" {
		return // skipped: no server
	}
	_, c := PostgresSchema(t, "gatehouse_dbtest")
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM information_schema.schemata WHERE schema_name IN ($1, $2)", schema, other).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the test, %d of its schemas are left (%v)", n, err)
	}
}

// TestSQLite: the SQLite store is migrated: a user can be stored and
// found again.
func TestSQLite(t *testing.T) {
	a := SQLite(t, "")
	ctx := context.Background()
	u, err := a.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.GetUserByEmail(ctx, "ada@example.com"); err != nil || got.ID != u.ID {
		t.Errorf("GetUserByEmail = %+v, %v; want %s", got, err, u.ID)
	}
}
