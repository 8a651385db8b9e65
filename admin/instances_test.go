package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
)

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
			schema, _ := dbtest.PostgresSchema(t, "gatehouse_admin")
			var rdb *redis.Client
			prefix := ""
			if c.redis {
				rdb = redistest.NewClient(t)
				prefix = redistest.Prefix(t, rdb)
			}
			op := newOP(t)
			instance := func() *site {
				var db adapter.Adapter = dbtest.Postgres(t, schema)
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
	schema, conn := dbtest.PostgresSchema(t, "gatehouse_admin")
	db := dbtest.Postgres(t, schema)
	s := newSite(t, newOP(t), db, func(cfg *gatehouse.Config) { cfg.Session.Strategy = gatehouse.StrategyJWT })
	ad := signedInAdmin(t, s)
	bob := signedInAs(t, s, "bob")
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
