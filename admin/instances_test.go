package admin_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
)

// postgresDSN is the test server: GATEHOUSE_TEST_POSTGRES, or a local
// server with trust authentication.
func postgresDSN() string {
	if dsn := os.Getenv("GATEHOUSE_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// skipOrFail skips the test when a server is missing, and fails it when
// CI is set.
func skipOrFail(t *testing.T, what string, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s cannot be reached: %v", what, err)
	}
	t.Skipf("%s cannot be reached (set CI to make this fail): %v", what, err)
}

// pgSchema creates a schema of the test's own, dropped at clean-up, and
// returns it with a connection on it for reading the tables.
func pgSchema(t *testing.T) (string, *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, postgresDSN())
	if err != nil {
		skipOrFail(t, "PostgreSQL", err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "gatehouse_admin_" + hex.EncodeToString(b[:])
	for _, q := range []string{"CREATE SCHEMA " + schema, "SET search_path TO " + schema} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		conn.Close(ctx)
	})
	return schema, conn
}

// pgAdapter is one instance's adapter: a pool of its own on schema,
// migrated.
func pgAdapter(t *testing.T, schema string) *postgres.Adapter {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(postgresDSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	a := postgres.New(pool)
	if err := a.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestBanEndsSessionsOnEveryInstance: two instances share one PostgreSQL
// (and, in one case, one Redis for sessions); a user signed in through
// one is refused by both at their next request once an administrator
// bans them through the other: database sessions with the cookie cache
// on, JWT sessions, and sessions in Redis. Revoking the sessions (no ban)
// does the same, and lets the user sign in again.
func TestBanEndsSessionsOnEveryInstance(t *testing.T) {
	cases := []struct {
		name     string
		strategy gatehouse.Strategy
		redis    bool
	}{
		{"database+cookie-cache", gatehouse.StrategyDatabase, false},
		{"jwt", gatehouse.StrategyJWT, false},
		{"redis-sessions", gatehouse.StrategyDatabase, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			schema, _ := pgSchema(t)
			var rdb *redis.Client
			prefix := ""
			if c.redis {
				rdb = redistest.NewClient(t)
				prefix = redistest.Prefix(t, rdb)
			}
			op := newOP(t)
			instance := func() *site {
				var db adapter.Adapter = pgAdapter(t, schema)
				if c.redis {
					db = redisstore.New(rdb, db, redisstore.Options{Prefix: prefix})
				}
				return newSite(t, op, db, func(cfg *gatehouse.Config) {
					cfg.Session.Strategy = c.strategy
					if c.strategy == gatehouse.StrategyDatabase {
						cfg.Session.CookieCache = gatehouse.CookieCache{Enabled: true, MaxAge: time.Hour}
					}
				})
			}
			a, b := instance(), instance()
			ad := signedInAdmin(t, b)
			bob := newBrowser(t)
			bob.mustSignIn(a, "oidc", "bob")
			// Both instances know the session; on a, the cookie cache now
			// holds a copy (database strategy).
			if !bob.private(a) || !bob.private(b) || !bob.private(a) {
				t.Fatal("the session does not work on both instances")
			}
			id := a.userID("bob@example.com")
			if code, v := ad.adminPost(b, id, "ban", nil); code != http.StatusOK {
				t.Fatalf("ban: %d %v", code, v)
			}
			if bob.private(a) || bob.private(b) || bob.sessionUser(a) != "" {
				t.Fatal("the banned user's session still works on an instance")
			}
			again := newBrowser(t)
			resp, _ := again.signIn(a, "oidc", "bob")
			wantBanned(t, again, a, resp, "oidc")

			if code, v := ad.adminPost(b, id, "unban", nil); code != http.StatusOK {
				t.Fatalf("unban: %d %v", code, v)
			}
			if bob.private(a) {
				t.Fatal("unbanning revived a session the ban ended")
			}
			bob.mustSignIn(a, "oidc", "bob")
			if !bob.private(a) || !bob.private(b) || !bob.private(a) {
				t.Fatal("a new session after the unban does not work on both instances")
			}
			if code, v := ad.adminPost(a, id, "revoke-sessions", url.Values{}); code != http.StatusOK {
				t.Fatalf("revoke-sessions: %d %v", code, v)
			}
			if bob.private(a) || bob.private(b) {
				t.Fatal("a revoked session still works on an instance")
			}
			bob.mustSignIn(b, "oidc", "bob")
			if !bob.private(a) {
				t.Fatal("a session made after the revocation is refused")
			}
		})
	}
}

// TestDeleteRemovesEveryRow: deleting a user through the admin route
// leaves no row of theirs in any table (read from PostgreSQL itself), and
// every row of the administrator in place; their JWT session ends with
// them.
func TestDeleteRemovesEveryRow(t *testing.T) {
	t.Parallel()
	schema, conn := pgSchema(t)
	db := pgAdapter(t, schema)
	s := newSite(t, newOP(t), db, func(cfg *gatehouse.Config) { cfg.Session.Strategy = gatehouse.StrategyJWT })
	ad := signedInAdmin(t, s)
	bob := newBrowser(t)
	bob.mustSignIn(s, "oidc", "bob")
	id := s.userID("bob@example.com")
	ctx := context.Background()
	// Something in every table that holds a user's rows.
	if _, err := db.CreateSession(ctx, adapter.Session{Token: "bob-db-session", UserID: id, Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateAuthenticator(ctx, adapter.Authenticator{CredentialID: "cred-bob", UserID: id, ProviderAccountID: "cred-bob",
		CredentialPublicKey: []byte{1}, CredentialDeviceType: adapter.SingleDevice}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetPasswordHash(ctx, id, "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$a2V5"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO gatehouse_two_factor (user_id, sealed, enabled, created_at, updated_at) VALUES ($1, 's', true, now(), now())`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO gatehouse_two_factor_backup_codes (user_id, hash, position) VALUES ($1, 'h', 1)`, id); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "bob@example.com", TokenHash: "t", Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.store.RevokeSessions(ctx, id, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	tables := map[string]string{
		"gatehouse_users":                   "id = $1",
		"gatehouse_accounts":                "user_id = $1",
		"gatehouse_sessions":                "user_id = $1",
		"gatehouse_authenticators":          "user_id = $1",
		"gatehouse_passwords":               "user_id = $1",
		"gatehouse_two_factor":              "user_id = $1",
		"gatehouse_two_factor_backup_codes": "user_id = $1",
		"gatehouse_admin":                   "user_id = $1",
		"gatehouse_verification_tokens":     "identifier = $1",
	}
	addrs := map[string]string{id: "bob@example.com", s.userID("admin@example.com"): "admin@example.com"}
	count := func(table, userID string) int {
		t.Helper()
		arg := userID
		if table == "gatehouse_verification_tokens" {
			arg = addrs[userID] // tokens are by address
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE "+tables[table], arg).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	adminRows := map[string]int{}
	for table := range tables {
		if count(table, id) == 0 {
			t.Fatalf("%s holds no row of bob before the deletion: the test proves nothing there", table)
		}
		adminRows[table] = count(table, s.userID("admin@example.com"))
	}
	if code, v := ad.adminPost(s, id, "delete", nil); code != http.StatusOK || v["deleted"] != id {
		t.Fatalf("delete: %d %v", code, v)
	}
	for table := range tables {
		if n := count(table, id); n != 0 {
			t.Errorf("%s holds %d rows of the deleted user", table, n)
		}
		if n := count(table, s.userID("admin@example.com")); n != adminRows[table] {
			t.Errorf("%s: the administrator's rows went from %d to %d", table, adminRows[table], n)
		}
	}
	if bob.private(s) {
		t.Error("the deleted user's JWT session still works")
	}
	if code, _ := ad.adminPost(s, id, "delete", nil); code != http.StatusNotFound {
		t.Errorf("deleting again: %d; want 404", code)
	}
}
