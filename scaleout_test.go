package gatehouse_test

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"maps"
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
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
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
			Secret: []string{testSecret},
			URL:    base + "/auth",
			Providers: []providers.Provider{devProvider(op), credentials.Config{Authorize: janeOnly,
				Fields: []credentials.Field{{Name: "username", Label: "Username"}, {Name: "password", Label: "Password", Type: "password"}}}},
			Adapter:   redisstore.New(rdb, pa, redisstore.Options{Prefix: prefix}),
			TwoFactor: gatehouse.TwoFactorConfig{Enabled: true},
			// One setting puts every limit in Redis; the balancer (the
			// test client, on loopback) reports the client's address.
			Limits:         redislimit.Backend{Client: rdb, Prefix: prefix + "limit:"},
			TrustedProxies: []string{"127.0.0.1", "::1"},
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

	// The credentials lockout counts in Redis, per client address as the
	// proxy reports it: five wrong passwords from one address, each on
	// the next instance, lock that address out on all three; another
	// address is not locked.
	guess := func(from, pw string) int {
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/credentials",
			strings.NewReader(url.Values{"csrfToken": {laptop.csrf(a)}, "username": {"jane"}, "password": {pw}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "198.51.100.99, "+from) // the left part is the client's own: ignored
		resp := laptop.do(req)
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 5 {
		if code := guess("203.0.113.7", "wrong"); code != http.StatusSeeOther {
			t.Fatalf("wrong password %d: %d", i, code)
		}
	}
	if code := guess("203.0.113.7", "correct horse"); code != http.StatusTooManyRequests {
		t.Fatalf("a sixth attempt from the same address, on another instance: %d, want 429", code)
	}
	if code := guess("203.0.113.8", "wrong"); code != http.StatusSeeOther {
		t.Fatalf("an attempt from another address: %d, want the usual refusal", code)
	}
	for _, name := range []string{"credentials-per-identifier-and-ip", "credentials-per-ip", "rate"} {
		if keys, _ := rdb.Keys(context.Background(), prefix+"limit:"+name+":*").Result(); len(keys) == 0 {
			t.Errorf("no counts of the %s limit in Redis", name)
		}
	}

	if users, sessions := pgCount(t, conn, "gatehouse_users"), pgCount(t, conn, "gatehouse_sessions"); users != 1 || sessions != 0 {
		t.Fatalf("PostgreSQL has %d users and %d sessions, want 1 and 0 (sessions live in Redis)", users, sessions)
	}
	if keys, _ := rdb.Keys(context.Background(), prefix+"session:*").Result(); len(keys) != 0 {
		t.Fatalf("%d sessions left in Redis", len(keys))
	}
}

// janeOnly is a credentials Authorize that knows one user, jane with the
// password "correct horse".
func janeOnly(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
	if c["username"] != "jane" || subtle.ConstantTimeCompare([]byte(c["password"]), []byte("correct horse")) != 1 {
		return nil, nil
	}
	return &profile.User{ID: "u-jane", Name: "Jane", Email: "jane@example.com"}, nil
}

// recordingBackend records the limits a Handler asks of Config.Limits.
type recordingBackend struct {
	mu   sync.Mutex
	made map[string]string
}

func (b *recordingBackend) Limiter(name string, max int, window time.Duration) limit.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, dup := b.made[name]; dup {
		b.made[name] = "asked twice"
	} else {
		b.made[name] = fmt.Sprintf("%d per %s", max, window)
	}
	return limit.NewMemory(max, window)
}

// TestLimitsMakesEveryLimit: with Config.Limits set, every limit the
// handler keeps by default is made by it, each under a name of its own
// and with the numbers of the in-memory default; a limiter set on its own
// field is used as it is.
func TestLimitsMakesEveryLimit(t *testing.T) {
	rec := &recordingBackend{made: map[string]string{}}
	op := newOP(t, authtest.Options{})
	mine := limit.NewMemory(1, time.Hour)
	newHandler(t, gatehouse.Config{
		Secret: []string{testSecret}, URL: "https://app.test/auth", Adapter: memory.New(), Limits: rec,
		TwoFactor: gatehouse.TwoFactorConfig{Enabled: true},
		Providers: []providers.Provider{devProvider(op),
			credentials.Config{Authorize: janeOnly, Fields: []credentials.Field{{Name: "username", Label: "Username"}}, PerIP: mine},
			email.Config{SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }},
			passwordaccount.Config{Send: func(context.Context, passwordaccount.Message) error { return nil }},
			passkey.New(passkey.WebAuthnConfig{}),
		},
	})
	n := func(max int, window time.Duration) string { return fmt.Sprintf("%d per %s", max, window) }
	cred := func(max int) string { return n(max, credentials.DefaultWindow) }
	sends := func(max int) string { return n(max, email.DefaultSendWindow) }
	want := map[string]string{
		"rate":                              n(gatehouse.DefaultRateLimit, time.Minute),
		"passkey-challenges":                n(1, time.Hour),
		"credentials-per-identifier":        cred(credentials.DefaultPerIdentifier),
		"credentials-per-identifier-and-ip": cred(credentials.DefaultPerIdentifierAndIP),
		"email-sends-per-ip":                sends(email.DefaultSendsPerIP),
		"email-sends-per-identifier":        sends(email.DefaultSendsPerIdentifier),
		"password-per-ip":                   cred(credentials.DefaultPerIP),
		"password-per-identifier":           cred(credentials.DefaultPerIdentifier),
		"password-per-identifier-and-ip":    cred(credentials.DefaultPerIdentifierAndIP),
		"password-sends-per-ip":             sends(email.DefaultSendsPerIP),
		"password-sends-per-identifier":     sends(email.DefaultSendsPerIdentifier),
		"two-factor-per-pending":            n(5, 5*time.Minute),
		"two-factor-per-user":               n(10, 15*time.Minute),
	}
	if !maps.Equal(rec.made, want) {
		t.Fatalf("limits made by Config.Limits:\n%v\nwant:\n%v", rec.made, want)
	}
}
