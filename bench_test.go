package gatehouse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Benchmarks of the per-request paths. Each comes in two forms:
//
//   - the default, "lean": the handler writes into a reusable
//     ResponseWriter that keeps the status and counts the body, so the
//     numbers are the library's own cost (what a request costs Gatehouse
//     on top of net/http's server);
//   - "recorder": through httptest.NewRecorder, which allocates a header
//     map, a snapshot of it and a body buffer per request, as the
//     end-to-end in-process figure.
//
// BenchmarkBareJSON is the ceiling for both: a plain handler answering the
// same session JSON; BenchmarkBareJSONBytes the stricter one, writing it
// pre-encoded. The loopback comparison with the peers is bench/.

// unlimited wraps mutate so that Config.RateLimit keeps its cost in the
// measure but not its limit: a benchmark signs in from one address far
// more often than DefaultRateLimit allows.
func unlimited(mutate func(*gatehouse.Config)) func(*gatehouse.Config) {
	return func(cfg *gatehouse.Config) {
		cfg.RateLimit = limit.NewMemory(math.MaxInt, time.Minute)
		if mutate != nil {
			mutate(cfg)
		}
	}
}

// benchApp is a signed-in browser's cookies against an in-process app.
func benchApp(b *testing.B, mutate func(*gatehouse.Config)) (*app, []*http.Cookie) {
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, unlimited(mutate))
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	return a, br.Client.Jar.Cookies(u)
}

func request(method, target string, cookies []*http.Cookie, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for _, c := range cookies {
		r.AddCookie(c)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return r
}

// leanWriter is a ResponseWriter that costs nothing per request once
// reset: the header map is cleared and reused, the body counted.
type leanWriter struct {
	h      http.Header
	code   int
	n      int
	header bool
}

func (w *leanWriter) reset() {
	if w.h == nil {
		w.h = http.Header{}
	}
	clear(w.h)
	w.code, w.n, w.header = 0, 0, false
}
func (w *leanWriter) Header() http.Header { return w.h }
func (w *leanWriter) WriteHeader(code int) {
	if !w.header {
		w.code, w.header = code, true
	}
}
func (w *leanWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

// reusable makes a request whose body can be read again: each call of
// next returns a shallow copy of r with the body rewound.
type reusable struct {
	r    *http.Request
	body string
	rd   strings.Reader
	cp   http.Request
}

func (u *reusable) next() *http.Request {
	u.rd.Reset(u.body)
	u.cp = *u.r
	u.cp.Body = io.NopCloser(&u.rd)
	return &u.cp
}

// run measures h on r: lean and through a recorder. want checks the
// first answer in full; later ones are checked by status and length.
func run(b *testing.B, h http.Handler, r func() *http.Request, want func(*httptest.ResponseRecorder) error) {
	first := httptest.NewRecorder()
	h.ServeHTTP(first, r())
	if err := want(first); err != nil {
		b.Fatalf("%v: %d %v %s", err, first.Code, first.Header(), first.Body)
	}
	code, n := first.Code, first.Body.Len()
	b.Run("writer=lean", func(b *testing.B) {
		var w leanWriter
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			w.reset()
			h.ServeHTTP(&w, r())
			if w.code != code || w.n != n {
				b.Fatalf("answered %d with %d bytes, want %d with %d", w.code, w.n, code, n)
			}
		}
	})
	b.Run("writer=recorder", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r())
			if w.Code != code || w.Body.Len() != n {
				b.Fatalf("answered %d with %d bytes, want %d with %d", w.Code, w.Body.Len(), code, n)
			}
		}
	})
}

// reportCPU adds the metric cpu-ns/op: the process's CPU time over the
// benchmark divided by its iterations. On a machine shared with other
// work, ns/op (wall time) grows with the load; cpu-ns/op much less.
// It includes the garbage collector's work, as it should.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func isJSONSession(w *httptest.ResponseRecorder) error {
	var s struct{ User struct{ Email string } }
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &s) != nil || s.User.Email != "alice@example.com" {
		return errBench("not the session")
	}
	return nil
}

type errBench string

func (e errBench) Error() string { return string(e) }

// BenchmarkBareJSON is the ceiling: a net/http handler answering the same
// session JSON with no auth at all.
func BenchmarkBareJSON(b *testing.B) {
	s := gatehouse.Session{Expires: time.Now().Add(time.Hour)}
	s.User.ID, s.User.Name, s.User.Email = "dev:alice", "Alice", "alice@example.com"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s)
	})
	r := request("GET", "http://app/auth/session", nil, "")
	run(b, h, func() *http.Request { return r }, isJSONSession)
}

// BenchmarkBareJSONBytes is the stricter ceiling: the same JSON encoded
// once and written as bytes, as Gatehouse answers from its cache.
func BenchmarkBareJSONBytes(b *testing.B) {
	s := gatehouse.Session{Expires: time.Now().Add(time.Hour)}
	s.User.ID, s.User.Name, s.User.Email = "dev:alice", "Alice", "alice@example.com"
	body, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	body = append(body, '\n')
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	r := request("GET", "http://app/auth/session", nil, "")
	run(b, h, func() *http.Request { return r }, isJSONSession)
}

// BenchmarkSessionRead is GET {base}/session with a valid JWT-strategy
// cookie (and the CSRF cookie a browser also sends).
func BenchmarkSessionRead(b *testing.B) {
	a, cookies := benchApp(b, nil)
	r := request("GET", a.url+"/auth/session", cookies, "")
	run(b, a.h, func() *http.Request { return r }, isJSONSession)
}

// BenchmarkSessionReadParallel is BenchmarkSessionRead from GOMAXPROCS
// goroutines at once: the caches must not serialise requests.
func BenchmarkSessionReadParallel(b *testing.B) {
	a, cookies := benchApp(b, nil)
	r := request("GET", a.url+"/auth/session", cookies, "")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var w leanWriter
		for pb.Next() {
			w.reset()
			a.h.ServeHTTP(&w, r)
			if w.code != 200 {
				b.Error(w.code)
				return
			}
		}
	})
}

// BenchmarkMiddlewareProtected is a protected route: Middleware reads the
// session, Require lets it through.
func BenchmarkMiddlewareProtected(b *testing.B) {
	a, cookies := benchApp(b, nil)
	h := a.h.Middleware(a.h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, gatehouse.SessionFrom(r.Context()).User.ID)
	})))
	r := request("GET", a.url+"/private", cookies, "")
	run(b, h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		if w.Code != 200 || w.Body.String() != "dev:alice" {
			return errBench("not through")
		}
		return nil
	})
}

// BenchmarkAnonymousSession is GET {base}/session from a browser with no
// cookie at all, through the Middleware, which gives it a CSRF cookie.
func BenchmarkAnonymousSession(b *testing.B) {
	a, _ := benchApp(b, nil)
	h := a.h.Middleware(a.h)
	r := request("GET", a.url+"/auth/session", nil, "")
	run(b, h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		// No CSRF cookie: the handler's own routes make one when they
		// need it, not on every poll of {base}/session.
		if w.Code != 200 || w.Body.String() != "null\n" || w.Header().Get("Set-Cookie") != "" {
			return errBench("not the anonymous answer")
		}
		return nil
	})
}

// BenchmarkProvidersList is GET {base}/providers, from a signed-in
// browser.
func BenchmarkProvidersList(b *testing.B) {
	a, cookies := benchApp(b, nil)
	r := request("GET", a.url+"/auth/providers", cookies, "")
	run(b, a.h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"signinUrl":"`+a.url+`/auth/signin/dev"`) {
			return errBench("not the providers list")
		}
		return nil
	})
}

// BenchmarkSignInRedirect is POST {base}/signin/{provider} with a valid
// CSRF pair; discovery is cached after the first sign-in.
func BenchmarkSignInRedirect(b *testing.B) {
	a, cookies := benchApp(b, nil)
	u := signInRequest(a, cookies, "dev")
	run(b, a.h, u.next, func(w *httptest.ResponseRecorder) error {
		if w.Code != http.StatusSeeOther || !strings.HasPrefix(w.Header().Get("Location"), a.op.Issuer()) {
			return errBench("not sent to the provider")
		}
		return nil
	})
}

// signInRequest is the sign-in POST a browser with cookies sends: the
// CSRF token of its cookie in the form.
func signInRequest(a *app, cookies []*http.Cookie, provider string) *reusable {
	var token string
	for _, c := range cookies {
		if c.Name == "authjs.csrf-token" {
			token, _, _ = strings.Cut(c.Value, "|")
		}
	}
	body := url.Values{"csrfToken": {token}, "callbackUrl": {"/private"}}.Encode()
	return &reusable{r: request("POST", a.url+"/auth/signin/"+provider, cookies, body), body: body}
}

// BenchmarkMiddlewareSession is GET {base}/session through the
// Middleware, as an application mounts it: the session read once.
func BenchmarkMiddlewareSession(b *testing.B) {
	a, cookies := benchApp(b, nil)
	h := a.h.Middleware(a.h)
	r := request("GET", a.url+"/auth/session", cookies, "")
	run(b, h, func() *http.Request { return r }, isJSONSession)
}

// BenchmarkMiddlewareProviders is GET {base}/providers through the
// Middleware, from a signed-in browser: no session is read for it.
func BenchmarkMiddlewareProviders(b *testing.B) {
	a, cookies := benchApp(b, nil)
	h := a.h.Middleware(a.h)
	r := request("GET", a.url+"/auth/providers", cookies, "")
	run(b, h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"signinUrl":"`+a.url+`/auth/signin/dev"`) {
			return errBench("not the providers list")
		}
		return nil
	})
}

// BenchmarkMiddlewareSignIn is BenchmarkSignInRedirect through the
// Middleware.
func BenchmarkMiddlewareSignIn(b *testing.B) {
	a, cookies := benchApp(b, nil)
	u := signInRequest(a, cookies, "dev")
	run(b, a.h.Middleware(a.h), u.next, func(w *httptest.ResponseRecorder) error {
		if w.Code != http.StatusSeeOther {
			return errBench("not the sign-in redirect")
		}
		return nil
	})
}

// replayTransport answers each provider request (discovery, JWKS, token,
// userinfo) the way the real provider answered the first one with the
// same method and URL, from memory. It takes the provider's own time out
// of a callback benchmark: what is left is Gatehouse's (and x/oauth2's,
// go-oidc's, go-jose's) work on the answers, plus building one
// http.Response per call.
type replayTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen map[string]recorded
}

type recorded struct {
	status int
	header http.Header
	body   []byte
}

func (t *replayTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key := r.Method + " " + r.URL.String()
	t.mu.Lock()
	rec, ok := t.seen[key]
	t.mu.Unlock()
	if !ok {
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		rec = recorded{resp.StatusCode, resp.Header, body}
		t.mu.Lock()
		t.seen[key] = rec
		t.mu.Unlock()
	}
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: rec.status, Header: rec.header, Body: io.NopCloser(bytes.NewReader(rec.body)),
		ContentLength: int64(len(rec.body)), Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// BenchmarkCallback is GET {base}/callback/{provider} with a cached JWKS:
// the state and iss checks, the sealed PKCE verifier and nonce, the code
// exchange, the ID token's signature (RS256) and claims, userinfo and the
// merge, the profile mapping and a new JWT session sealed into a cookie.
// The provider's answers come from memory (replayTransport), recorded
// from the in-process OP on the first callback; the same callback URL and
// check cookie are replayed every iteration (the OP would refuse a code
// twice; Gatehouse keeps no server-side state to notice).
func BenchmarkCallback(b *testing.B) {
	rt := &replayTransport{base: http.DefaultTransport, seen: map[string]recorded{}}
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, unlimited(func(cfg *gatehouse.Config) {
		cfg.HTTPClient = &http.Client{Timeout: 2 * time.Second, Transport: rt}
	}))
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	resp := br.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {br.csrf(a)}, "callbackUrl": {"/private"}})
	authz := br.Get(resp.Header.Get("Location")) // AutoApprove: straight back with a code
	callback := authz.Header.Get("Location")
	if !strings.Contains(callback, "/auth/callback/dev?") {
		b.Fatalf("the OP answered %d to %q", authz.StatusCode, callback)
	}
	u, _ := url.Parse(a.url)
	r := request("GET", callback, br.Client.Jar.Cookies(u), "")
	run(b, a.h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		if w.Code != http.StatusFound || w.Header().Get("Location") != a.url+"/private" ||
			!strings.Contains(strings.Join(w.Header().Values("Set-Cookie"), "\n"), "authjs.session-token=") {
			return errBench("not signed in")
		}
		return nil
	})
}

// moreProviders adds n-1 OAuth 2.0 providers with fixed endpoints to the
// app's "dev", so that n are configured.
func moreProviders(n int) func(*gatehouse.Config) {
	return func(cfg *gatehouse.Config) {
		for i := 1; i < n; i++ {
			cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
				ID: fmt.Sprintf("p%03d", i), Name: fmt.Sprintf("Provider %d", i), Type: providers.TypeOAuth,
				ClientID: "client", ClientSecret: "secret",
				Authorization: providers.AuthorizationEndpoint{URL: fmt.Sprintf("https://p%03d.example/authorize", i)},
				Token:         providers.TokenEndpoint{URL: fmt.Sprintf("https://p%03d.example/token", i)},
				Userinfo:      providers.UserinfoEndpoint[profile.Claims]{URL: fmt.Sprintf("https://p%03d.example/me", i)},
			})
		}
	}
}

// perRequestAllocs measures the allocations of a session read, a
// protected route and a sign-in redirect, with n providers configured.
func perRequestAllocs(t *testing.T, n int) (session, protected, signIn float64) {
	a := newApp(t, authtest.Options{}, unlimited(moreProviders(n)))
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	cookies := br.jarCookies(a)
	var w leanWriter
	sr := request("GET", a.url+"/auth/session", cookies, "")
	session = minAllocs(func() { w.reset(); a.h.ServeHTTP(&w, sr) })
	mw := a.h.Middleware(a.h.Require(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
	pr := request("GET", a.url+"/private", cookies, "")
	protected = minAllocs(func() { w.reset(); mw.ServeHTTP(&w, pr) })
	u := signInRequest(a, cookies, "dev")
	signIn = minAllocs(func() {
		w.reset()
		a.h.ServeHTTP(&w, u.next())
		if w.code != http.StatusSeeOther {
			t.Fatalf("sign-in answered %d", w.code)
		}
	})
	return
}

// minAllocs is the least of three testing.AllocsPerRun measures of f: a
// garbage collection empties sync.Pools (the CSRF MAC states, chi's route
// contexts), and refilling them is not a cost per request.
func minAllocs(f func()) float64 {
	least := testing.AllocsPerRun(200, f)
	for range 2 {
		least = min(least, testing.AllocsPerRun(200, f))
	}
	return least
}

// TestAllocsIndependentOfProviders: a request costs the same allocations
// with 1 provider configured as with 100.
func TestAllocsIndependentOfProviders(t *testing.T) {
	if raceDetector {
		t.Skip("allocation counts under the race detector are not the program's own (see race_on_test.go); make test runs this without -race")
	}
	s1, p1, i1 := perRequestAllocs(t, 1)
	s100, p100, i100 := perRequestAllocs(t, 100)
	t.Logf("allocations per request, 1 vs 100 providers: session %v/%v, protected %v/%v, sign-in %v/%v", s1, s100, p1, p100, i1, i100)
	if s1 != s100 || p1 != p100 || i1 != i100 {
		t.Fatalf("allocations grow with providers: session %v→%v, protected %v→%v, sign-in %v→%v", s1, s100, p1, p100, i1, i100)
	}
}

// TestMiddlewareAnonymousRoutesFree: a request to the handler's own
// routes with no cookie and no Authorization header costs the same
// allocations through the Middleware as without it (no state for a
// request with nothing to read), and gets the same answer: null, no
// cookie set. A signed-in browser's request still gets the state: a
// wrapper of the handler sees its session.
func TestMiddlewareAnonymousRoutesFree(t *testing.T) {
	if raceDetector {
		t.Skip("allocation counts under the race detector are not the program's own (see race_on_test.go); make test runs this without -race")
	}
	a := newApp(t, authtest.Options{}, unlimited(nil))
	var seen *gatehouse.Session
	wrapped := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = gatehouse.SessionFrom(r.Context())
		a.h.ServeHTTP(w, r)
	}))
	r := request("GET", a.url+"/auth/session", nil, "")
	var w leanWriter
	direct := minAllocs(func() { w.reset(); a.h.ServeHTTP(&w, r) })
	through := minAllocs(func() { w.reset(); wrapped.ServeHTTP(&w, r) })
	if through != direct {
		t.Errorf("anonymous GET {base}/session: %v allocations through the Middleware, %v without it", through, direct)
	}
	rec := httptest.NewRecorder()
	wrapped.ServeHTTP(rec, r)
	if rec.Code != 200 || rec.Body.String() != "null\n" || rec.Header().Get("Set-Cookie") != "" || seen != nil {
		t.Errorf("anonymous answer %d %q, Set-Cookie %q, session %v", rec.Code, rec.Body, rec.Header().Get("Set-Cookie"), seen)
	}

	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	rec = httptest.NewRecorder()
	wrapped.ServeHTTP(rec, request("GET", a.url+"/auth/session", br.jarCookies(a), ""))
	if seen == nil || !strings.Contains(rec.Body.String(), `"user"`) {
		t.Errorf("signed in: the wrapper saw %v, the answer %q", seen, rec.Body)
	}
}

// TestSignInsInFlightCostNothing: 10 000 sign-ins started and never
// finished leave the server's heap as it was: their state lives in the
// browsers' cookies.
func TestSignInsInFlightCostNothing(t *testing.T) {
	a := newApp(t, authtest.Options{}, unlimited(nil))
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	u := signInRequest(a, br.jarCookies(a), "dev")
	var w leanWriter
	signIn := func() {
		w.reset()
		a.h.ServeHTTP(&w, u.next())
		if w.code != http.StatusSeeOther {
			t.Fatalf("sign-in answered %d", w.code)
		}
	}
	for range 100 { // warm: discovery, the authorization request template
		signIn()
	}
	before := heapInUse()
	const n = 10000
	for range n {
		signIn()
	}
	after := heapInUse()
	t.Logf("heap before %d B, after %d sign-ins in flight %d B", before, n, after)
	// A byte per sign-in would be 10 kB; allow for the runtime's own noise.
	if grown := int64(after) - int64(before); grown > 64<<10 {
		t.Fatalf("the heap grew by %d B over %d unfinished sign-ins", grown, n)
	}
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkProviders is the session read and the sign-in redirect with 1
// and with 100 providers configured.
func BenchmarkProviders(b *testing.B) {
	for _, n := range []int{1, 100} {
		a, cookies := benchApp(b, moreProviders(n))
		b.Run(fmt.Sprintf("providers=%d/session", n), func(b *testing.B) {
			r := request("GET", a.url+"/auth/session", cookies, "")
			var w leanWriter
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				a.h.ServeHTTP(&w, r)
			}
		})
		b.Run(fmt.Sprintf("providers=%d/signin", n), func(b *testing.B) {
			u := signInRequest(a, cookies, "dev")
			var w leanWriter
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				a.h.ServeHTTP(&w, u.next())
			}
		})
	}
}

func (b *browser) jarCookies(a *app) []*http.Cookie {
	u, _ := url.Parse(a.url)
	return b.Client.Jar.Cookies(u)
}

// wireCounter counts what crosses the connections of a pool: each Write
// is one message batch sent to the server, so with replies in between it
// is one round trip; each query the tracer sees is one statement.
type wireCounter struct {
	writes, queries atomic.Int64
}

type countingConn struct {
	net.Conn
	n *wireCounter
}

func (c countingConn) Write(p []byte) (int, error) {
	c.n.writes.Add(1)
	return c.Conn.Write(p)
}

func (w *wireCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	w.queries.Add(1)
	return ctx
}
func (w *wireCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// countedPostgres is a migrated adapter on a schema of its own whose
// pool's connections are counted.
func countedPostgres(t testing.TB) (*postgres.Adapter, *wireCounter) {
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_scaleout")
	n := &wireCounter{}
	pool := dbtest.PostgresPool(t, schema, func(cfg *pgxpool.Config) {
		cfg.ConnConfig.Tracer = n
		cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return countingConn{c, n}, nil
		}
	})
	return dbtest.Migrated(t, postgres.New(pool)), n
}

// TestDatabaseSessionOneRoundTrip: with the database strategy on
// PostgreSQL, a session read (GET {base}/session, and the Middleware on a
// protected route) costs one query in one round trip.
func TestDatabaseSessionOneRoundTrip(t *testing.T) {
	pg, n := countedPostgres(t)
	a := newApp(t, authtest.Options{}, unlimited(func(cfg *gatehouse.Config) { cfg.Adapter = pg }))
	b := newBrowser(t)
	if _, body := b.signIn(a, "dev", "/private"); body != "hello alice@example.com" {
		t.Fatalf("sign-in ended with %q", body)
	}
	// The first reads on a connection prepare the statement (pgx caches
	// it per connection); count after that.
	for range 3 {
		b.session(a)
	}
	const reads = 20
	w0, q0 := n.writes.Load(), n.queries.Load()
	for range reads {
		if s := b.session(a); s == nil {
			t.Fatal("no session")
		}
	}
	if w, q := n.writes.Load()-w0, n.queries.Load()-q0; w != reads || q != reads {
		t.Fatalf("%d session reads took %d round trips and %d queries; want one of each per read", reads, w, q)
	}
	w0 = n.writes.Load()
	for range reads {
		if r := b.Get(a.url + "/private"); r.StatusCode != 200 {
			t.Fatalf("protected route answered %d", r.StatusCode)
		}
	}
	if w := n.writes.Load() - w0; w != reads {
		t.Fatalf("%d protected requests took %d round trips; want one each", reads, w)
	}
}

// BenchmarkSessionReadPostgres is GET {base}/session with the database
// strategy on PostgreSQL; round-trips/op and queries/op are counted on
// the wire.
func BenchmarkSessionReadPostgres(b *testing.B) {
	pg, n := countedPostgres(b)
	h, cookies := benchSession(b, func(cfg *gatehouse.Config) { cfg.Adapter = pg })
	r := httptest.NewRequest(http.MethodGet, "http://app/auth/session", nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	for range 3 { // prepare the statement on the connection
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	w0, q0 := n.writes.Load(), n.queries.Load()
	b.ReportAllocs()
	stop := reportCPU(b)
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "alice@example.com") {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	stop()
	b.ReportMetric(float64(n.writes.Load()-w0)/float64(b.N), "round-trips/op")
	b.ReportMetric(float64(n.queries.Load()-q0)/float64(b.N), "queries/op")
}

// BenchmarkMiddlewareBearer is BenchmarkMiddlewareProtected with
// Session.Bearer on: a browser request (cookie, no Authorization header)
// and an API request (the same token as a Bearer header).
func BenchmarkMiddlewareBearer(b *testing.B) {
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Session.Bearer = true })
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	cookies := br.Client.Jar.Cookies(u)
	h := a.h.Middleware(a.h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(gatehouse.SessionFrom(r.Context()).User.ID))
	})))
	for _, tc := range []struct {
		name string
		r    *http.Request
	}{
		{"cookie", request("GET", a.url+"/private", cookies, "")},
		{"bearer", func() *http.Request {
			r := request("GET", a.url+"/private", nil, "")
			r.Header.Set("Authorization", "Bearer "+br.cookie(a, "authjs.session-token"))
			return r
		}()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, tc.r)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}

// benchSession signs in once with cfg and returns the Handler and the
// signed-in browser's cookies.
func benchSession(b *testing.B, mutate func(*gatehouse.Config)) (*gatehouse.Handler, []*http.Cookie) {
	b.Helper()
	op := newOP(b, authtest.Options{AutoApprove: true})
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	cfg := gatehouse.Config{
		Secret:    []string{testSecret},
		URL:       base + "/auth",
		Providers: []providers.Provider{devProvider(op)},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h, err := gatehouse.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.HandleFunc("/", func(http.ResponseWriter, *http.Request) {})
	srv.Config.Handler = h.Middleware(mux)
	srv.Start()
	b.Cleanup(srv.Close)
	final, body, c, err := signInFlow(context.Background(), base, "dev", "")
	if err != nil || !strings.HasSuffix(final, "/private") {
		b.Fatalf("sign-in: %v, ended on %s with %q", err, final, body)
	}
	u, _ := url.Parse(base)
	return h, c.Jar.Cookies(u)
}

// BenchmarkSessionReadDatabase is BenchmarkSessionRead (GET
// {base}/session) with the database strategy: the token hashed, one
// GetSessionAndUser, no expiry push.
func BenchmarkSessionReadDatabase(b *testing.B) {
	for _, kind := range stores {
		for _, cached := range []bool{false, true} {
			name := kind
			if cached {
				name += "/cookiecache"
			}
			b.Run(name, func(b *testing.B) { benchSessionReadDatabase(b, kind, cached) })
		}
	}
}

// benchSessionReadDatabase reads a database session of kind, through the
// cookie cache (SessionConfig.CookieCache) when cached is set.
func benchSessionReadDatabase(b *testing.B, kind string, cached bool) {
	st := openStore(b, kind)
	h, cookies := benchSession(b, func(cfg *gatehouse.Config) {
		cfg.Adapter = st.raw
		cfg.Session.CookieCache.Enabled = cached
	})
	r := httptest.NewRequest(http.MethodGet, "http://app/auth/session", nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "alice@example.com") {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}
