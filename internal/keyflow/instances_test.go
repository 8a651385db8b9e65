package keyflow_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestInstancesShareKeys: two handlers on one PostgreSQL; a key made on
// one works on the other, and its revocation on one is refused by the
// other at its next request.
func TestInstancesShareKeys(t *testing.T) {
	schema, conn := dbtest.PostgresSchema(t, "gatehouse_keys")
	g := &grants{m: map[string]permission.Set{}}
	a := newEnv(t, dbtest.Postgres(t, schema), g, nil)
	b := newEnv(t, dbtest.Postgres(t, schema), g, nil)
	_, browser := a.user("ada@example.com", "report:read")
	key, id := browser.newKey("ci", "report:read", nil)
	if status, _ := b.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Fatalf("a key made on A, on B: %d", status)
	}
	if status, _ := browser.post("/auth/api-keys/"+id+"/revoke", nil); status != http.StatusOK {
		t.Fatal(status)
	}
	if status, _ := b.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("a key revoked on A, on B: %d; want 401", status)
	}
	// The table holds the key's hash, never its secret.
	secret := key[strings.LastIndex(key, "_")+1:]
	var rows string
	if err := conn.QueryRow(context.Background(), `SELECT string_agg(row_to_json(k)::text, ',') FROM gatehouse_api_keys k`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rows, secret) || !strings.Contains(rows, id) {
		t.Errorf("gatehouse_api_keys: the secret is stored, or the key is not: %s", rows)
	}
}

// TestMaxKeysAcrossInstances: two handlers on one PostgreSQL, directly
// and through the Redis wrapper; 100 parallel creations of one user's
// keys, half on each, with MaxKeys 5: exactly 5 are made, the others are
// refused with 409.
func TestMaxKeysAcrossInstances(t *testing.T) {
	for _, viaRedis := range []bool{false, true} {
		t.Run(map[bool]string{false: "PostgreSQL", true: "Redis"}[viaRedis], func(t *testing.T) {
			schema, conn := dbtest.PostgresSchema(t, "gatehouse_keys")
			var rdb *redis.Client
			var prefix string
			if viaRedis {
				rdb = redistest.NewClient(t)
				prefix = redistest.Prefix(t, rdb)
			}
			instance := func() adapter.Adapter {
				if viaRedis {
					return redisstore.New(rdb, dbtest.Postgres(t, schema), redisstore.Options{Prefix: prefix})
				}
				return dbtest.Postgres(t, schema)
			}
			g := &grants{m: map[string]permission.Set{}}
			max5 := func(c *testConfig) { c.MachineAccess.MaxKeys = 5 }
			a, b := newEnv(t, instance(), g, max5), newEnv(t, instance(), g, max5)
			userID, onA := a.user("ada@example.com")
			browsers := []*browser{onA, onA.on(b)}
			var made, refused atomic.Int32
			var wg sync.WaitGroup
			for i := range 100 {
				wg.Go(func() {
					switch status, out := browsers[i%2].post("/auth/api-keys", url.Values{"name": {"p"}}); status {
					case http.StatusCreated:
						made.Add(1)
					case http.StatusConflict:
						refused.Add(1)
					default:
						t.Errorf("creation %d: %d %v", i, status, out)
					}
				})
			}
			wg.Wait()
			var stored int
			if err := conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM gatehouse_api_keys WHERE user_id = $1`, userID).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			t.Logf("100 parallel creations on two instances: %d made, %d refused, %d stored", made.Load(), refused.Load(), stored)
			if made.Load() != 5 || refused.Load() != 95 || stored != 5 {
				t.Errorf("%d made, %d refused, %d stored; want 5, 95 and 5 (MaxKeys 5)", made.Load(), refused.Load(), stored)
			}
		})
	}
}

// TestSQLiteStoresNoSecret: in SQLite too, the table holds no secret.
func TestSQLiteStoresNoSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.db")
	e := newEnv(t, dbtest.SQLite(t, path), nil, nil)
	_, b := e.user("ada@example.com")
	key, id := b.newKey("ci", "", nil)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows string
	if err := db.QueryRow(`SELECT group_concat(id || name || user_id || hash || previous_hash || permissions) FROM gatehouse_api_keys`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	secret := key[strings.LastIndex(key, "_")+1:]
	if strings.Contains(rows, secret) || !strings.Contains(rows, id) {
		t.Errorf("gatehouse_api_keys holds the secret, or not the key: %s", rows)
	}
}

// TestRedisWrapperKeys: over the Redis wrapper, keys live in the primary
// and work, and service tokens are issued.
func TestRedisWrapperKeys(t *testing.T) {
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_keys")
	rdb := redistest.NewClient(t)
	store := redisstore.New(rdb, dbtest.Postgres(t, schema), redisstore.Options{Prefix: redistest.Prefix(t, rdb)})
	e := newEnv(t, store, nil, withTokens(""))
	_, b := e.user("ada@example.com")
	key, _ := b.newKey("ci", "", nil)
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Errorf("key over the Redis wrapper: %d", status)
	}
	if status, _ := e.withKey(http.MethodPost, "/auth/token", key, nil); status != http.StatusOK {
		t.Errorf("token over the Redis wrapper: %d", status)
	}
}

// TestRotationAcrossInstances: two handlers on one PostgreSQL, signing
// keys rotating every 2 s with 800 ms of overlap; tokens issued by both
// in turn (and 20 at once at the start, to race the first key) are
// verified by a service that caches each instance's key set for its
// max-age and never refetches on an unknown kid. No verification fails,
// and the instances make one key per generation between them.
func TestRotationAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 7 seconds")
	}
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_keys")
	g := &grants{m: map[string]permission.Set{}}
	tokens := func(c *testConfig) {
		c.MachineAccess.Tokens = &servicetoken.Config{Audiences: []string{"reports"},
			Lifetime: time.Second, Rotation: 2 * time.Second, Overlap: 800 * time.Millisecond}
	}
	a := newEnv(t, dbtest.Postgres(t, schema), g, tokens)
	b := newEnv(t, dbtest.Postgres(t, schema), g, tokens)
	_, browser := a.user("ada@example.com")
	key, _ := browser.newKey("ci", "", nil)
	instances := []*env{a, b}

	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if status, _ := instances[i%2].withKey(http.MethodPost, "/auth/token", key, nil); status != http.StatusOK {
				t.Errorf("token %d: %d", i, status)
			}
		})
	}
	wg.Wait()

	// The verifier caches the key set of each instance for 500 ms: more
	// than its max-age (a quarter of the 800 ms of overlap).
	type cached struct {
		set     jose.JSONWebKeySet
		fetched time.Time
	}
	cache := map[*env]cached{}
	keySet := func(e *env) jose.JSONWebKeySet {
		if c, ok := cache[e]; ok && time.Since(c.fetched) < 500*time.Millisecond {
			return c.set
		}
		set, _ := e.jwks()
		cache[e] = cached{set, time.Now()}
		return set
	}
	kids := map[string]bool{}
	deadline := time.Now().Add(7 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		issuer, verifier := instances[i%2], instances[(i+1)%2]
		status, out := issuer.withKey(http.MethodPost, "/auth/token", key, url.Values{})
		if status != http.StatusOK {
			t.Fatalf("token %d: %d %v", i, status, out)
		}
		tok := out["access_token"].(string)
		verify(t, keySet(verifier), tok, servicetoken.EdDSA, issuer.srv.URL+"/auth", "reports")
		parsed, err := jwt.ParseSigned(tok, []jose.SignatureAlgorithm{jose.EdDSA})
		if err != nil {
			t.Fatal(err)
		}
		kids[parsed.Headers[0].KeyID] = true
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d signing keys used", len(kids))
	if len(kids) < 3 {
		t.Errorf("%d signing keys used in 7 s; want at least 3 (rotation every 2 s)", len(kids))
	}
	keys, err := a.store.(servicetoken.KeyStore).SigningKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].Generation != keys[i-1].Generation+1 || keys[i].NotBefore.Sub(keys[i-1].NotBefore) < 2*time.Second-time.Millisecond {
			t.Errorf("keys %d and %d: generations %d, %d, %v apart; want one per generation, a Rotation apart",
				i-1, i, keys[i-1].Generation, keys[i].Generation, keys[i].NotBefore.Sub(keys[i-1].NotBefore))
		}
	}
}
