package gatehouse_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// postgresDSN is the test server: GATEHOUSE_TEST_POSTGRES, or a local
// server with trust authentication.
func postgresDSN() string {
	if dsn := os.Getenv("GATEHOUSE_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// requirePostgres fails the test when the server cannot be reached and CI
// is set, and skips it otherwise.
func requirePostgres(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, postgresDSN())
	if err == nil {
		err = conn.Ping(ctx)
		conn.Close(ctx)
	}
	if err == nil {
		return
	}
	where := "the server of GATEHOUSE_TEST_POSTGRES"
	if u, perr := url.Parse(postgresDSN()); perr == nil && u.Scheme != "" {
		where = u.Redacted()
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES): %v", where, err)
	}
	t.Skipf("PostgreSQL at %s cannot be reached (set GATEHOUSE_TEST_POSTGRES, or CI to make this fail): %v", where, err)
}

// pgSchema creates a schema of the test's own, dropped at clean-up, so
// that parallel runs do not collide (as adapter/postgres's tests do). It
// returns the schema and a connection for counting rows.
func pgSchema(t testing.TB) (string, *pgx.Conn) {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	schema := "gatehouse_scaleout_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, postgresDSN())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SET search_path TO "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		conn.Close(ctx)
	})
	return schema, conn
}

// pgAdapter is one instance's adapter: its own pool on schema.
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
	return postgres.New(pool)
}

func pgCount(t *testing.T, conn *pgx.Conn, table string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestScaleOut runs three instances of the application (three Handlers
// with one secret, each with its own connection pool to one PostgreSQL
// database) behind a balancer that sends the sign-in to the first, the
// provider's callback to the second and everything else to the third.
func TestScaleOut(t *testing.T) {
	t.Parallel()
	requirePostgres(t)
	schema, conn := pgSchema(t)
	op := newOP(t, authtest.Options{AutoApprove: true, Users: []authtest.User{alice, bob}})
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()

	const n = 3
	var (
		handlers [n]*gatehouse.Handler
		apps     [n]http.Handler
		spies    [n]*spyAdapter
		created  atomic.Int32 // CreateUser events, over all instances
	)
	var migrate sync.WaitGroup
	for i := range n {
		pa := pgAdapter(t, schema)
		migrate.Go(func() { // concurrently, as instances starting together do
			if err := pa.Migrate(context.Background()); err != nil {
				t.Error(err)
			}
		})
		spies[i] = newSpy(pa)
		h, err := gatehouse.New(gatehouse.Config{
			Secret:     []string{testSecret},
			URL:        base + "/auth",
			Providers:  []providers.Provider{devProvider(op)},
			Adapter:    spies[i],
			HTTPClient: &http.Client{Timeout: 5 * time.Second},
			Events:     gatehouse.Events{CreateUser: func(context.Context, profile.User) { created.Add(1) }},
		})
		if err != nil {
			t.Fatal(err)
		}
		handlers[i], apps[i] = h, h.Middleware(siteMux(h))
	}
	migrate.Wait()
	if t.Failed() {
		t.FailNow()
	}

	var (
		mu        sync.Mutex
		served    []string
		callbacks atomic.Int32
	)
	route := func(r *http.Request) int {
		switch p := r.URL.Path; {
		case p == "/auth/csrf", strings.HasPrefix(p, "/auth/signin/"), p == "/auth/signout":
			return 0
		case strings.HasPrefix(p, "/auth/callback/"):
			return 1 + int(callbacks.Add(1)-1)%2 // 1, then 2, 1, …
		}
		return 2
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := route(r)
		mu.Lock()
		served = append(served, string(rune('0'+i))+" "+r.Method+" "+r.URL.Path)
		mu.Unlock()
		apps[i].ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	a := &app{t: t, op: op, srv: srv, url: base}

	// Sign in on 0, call back on 1, read the session on 2.
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.hops)
	}
	for _, want := range []string{"0 POST /auth/signin/dev", "1 GET /auth/callback/dev", "2 GET /private"} {
		if !slices.Contains(served, want) {
			t.Fatalf("no %q in %q", want, served)
		}
	}
	stored, err := spies[2].Adapter.GetUserByEmail(context.Background(), "alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if id := b.userID(a); id != stored.ID {
		t.Fatalf("instance 2 reads the session as %q, want %q", id, stored.ID)
	}
	if spies[1].count("CreateSession") != 1 || spies[2].count("GetSessionAndUser") == 0 {
		t.Fatal("the session was not made on instance 1 and read on instance 2")
	}

	// Tokens: refreshed by instance 1, the saved ones used by instance 2.
	ctx := context.Background()
	acct, _ := spies[0].Adapter.GetAccount(ctx, "dev", "alice")
	acct.ExpiresAt = time.Now().Add(-time.Minute).Unix()
	if err := spies[0].Adapter.UpdateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	ts1, err := handlers[1].TokenSource(ctx, nil, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	tok1, err := ts1.Token()
	if err != nil || tok1.AccessToken == acct.AccessToken {
		t.Fatalf("instance 1: %v (%v)", tok1, err)
	}
	ts2, _ := handlers[2].TokenSource(ctx, nil, b.appRequest(a), "dev")
	if tok2, err := ts2.Token(); err != nil || tok2.AccessToken != tok1.AccessToken || len(refreshRequests(op)) != 1 {
		t.Fatalf("instance 2: same token %v (%v), %d refreshes", tok2.AccessToken == tok1.AccessToken, err, len(refreshRequests(op)))
	}

	// Two first sign-ins of bob at once, called back on instances 1 and 2,
	// both past the lookups before either writes: one user.
	bar := newBarrier(2)
	for _, s := range spies {
		s.holdAt("CreateUserWithAccount", bar)
	}
	runConcurrentSignInsAs(t, base, "dev", "bob", 2)
	creates := 0
	for _, s := range spies {
		s.holdAt("CreateUserWithAccount", nil)
		creates += s.count("CreateUserWithAccount")
	}
	if creates != 3 {
		t.Fatalf("%d CreateUserWithAccount calls, want alice's 1 and bob's 2 (the race did not happen)", creates)
	}
	if got := created.Load(); got != 2 {
		t.Fatalf("CreateUser fired %d times for alice and bob, want 2", got)
	}
	if users, accts := pgCount(t, conn, "gatehouse_users"), pgCount(t, conn, "gatehouse_accounts"); users != 2 || accts != 2 {
		t.Fatalf("%d users and %d accounts, want 2 and 2", users, accts)
	}

	// Sign out on 0: the session is gone on 2.
	out := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}})
	out.Body.Close()
	if id := b.userID(a); id != "" {
		t.Fatalf("instance 2 still reads a session after sign-out on 0: %q", id)
	}
	if n := pgCount(t, conn, "gatehouse_sessions"); n != 2 {
		t.Fatalf("%d session rows, want bob's 2", n)
	}
}

// TestScaleOutRedis runs three instances with Redis as secondary storage
// (sessions in Redis, users, accounts and two-factor secrets in
// PostgreSQL) behind a balancer that sends each request to the next
// instance in turn, so that every step of every flow lands on another
// instance than the one before. Two browsers sign in; one turns on
// two-factor sign-in and passes it on a later sign-in; "sign out
// everywhere else" and sign-out are refused on every instance at the
// next request: the cookie cache, though enabled, is left off, since
// Redis is read each time.
func TestScaleOutRedis(t *testing.T) {
	t.Parallel()
	requirePostgres(t)
	schema, conn := pgSchema(t)
	rdb := redisClient(t)
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	op := newOP(t, authtest.Options{AutoApprove: true})
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()
	const n = 3
	var apps [n]http.Handler
	for i := range n {
		pa := pgAdapter(t, schema)
		if err := pa.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		h, err := gatehouse.New(gatehouse.Config{
			Secret:    []string{testSecret},
			URL:       base + "/auth",
			Providers: []providers.Provider{devProvider(op)},
			Adapter:   redisstore.New(rdb, pa, redisstore.Options{Prefix: prefix}),
			TwoFactor: gatehouse.TwoFactorConfig{Enabled: true},
			// Asked for, and left off: sessions are read live from Redis
			// (adapter.LiveSessions), so an ended one is refused at once.
			Session:    gatehouse.SessionConfig{CookieCache: gatehouse.CookieCache{Enabled: true}},
			HTTPClient: &http.Client{Timeout: 5 * time.Second},
		})
		if err != nil {
			t.Fatal(err)
		}
		apps[i] = h.Middleware(siteMux(h))
	}
	var next atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apps[int(next.Add(1)-1)%n].ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	a := &app{t: t, op: op, srv: srv, url: base}
	signedOutEverywhere := func(b *browser, what string) {
		t.Helper()
		for range n {
			if id := b.userID(a); id != "" {
				t.Fatalf("%s: an instance still reads a session (%s)", what, id)
			}
		}
	}

	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)
	if code, list := laptop.sessions(a); code != http.StatusOK || len(list) != 2 {
		t.Fatalf("sessions listed from Redis: %d %v", code, list)
	}
	if keys, _ := rdb.Keys(context.Background(), prefix+"session:*").Result(); len(keys) != 2 {
		t.Fatalf("%d sessions in Redis, want 2", len(keys))
	}
	_, backups := enrol(t, a, laptop)

	// A later sign-in asks for the code, across instances.
	tablet := newBrowser(t)
	if resp, _ := firstFactor(t, a, tablet); resp.Request.URL.Path != "/auth/two-factor" {
		t.Fatalf("the first factor landed on %s, want the code form", resp.Request.URL)
	}
	if code, _ := tablet.twoFactor(a, "", url.Values{"code": {backups[0]}}); code != http.StatusSeeOther || tablet.userID(a) == "" {
		t.Fatalf("the backup code: %d", code)
	}

	if code := laptop.revoke(a, "revoke-others", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-others: %d", code)
	}
	signedOutEverywhere(phone, "after revoke-others, the phone")
	signedOutEverywhere(tablet, "after revoke-others, the tablet")
	out := laptop.post(a.url+"/auth/signout", url.Values{"csrfToken": {laptop.csrf(a)}})
	out.Body.Close()
	signedOutEverywhere(laptop, "after sign-out, the laptop")

	if users, sessions := pgCount(t, conn, "gatehouse_users"), pgCount(t, conn, "gatehouse_sessions"); users != 1 || sessions != 0 {
		t.Fatalf("PostgreSQL has %d users and %d sessions, want 1 and 0 (sessions live in Redis)", users, sessions)
	}
	if keys, _ := rdb.Keys(context.Background(), prefix+"session:*").Result(); len(keys) != 0 {
		t.Fatalf("%d sessions left in Redis", len(keys))
	}
}
