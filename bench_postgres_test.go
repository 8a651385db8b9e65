package gatehouse_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/authtest"
)

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
	requirePostgres(t)
	schema, _ := pgSchema(t)
	cfg, err := pgxpool.ParseConfig(postgresDSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	n := &wireCounter{}
	cfg.ConnConfig.Tracer = n
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{c, n}, nil
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	a := postgres.New(pool)
	if err := a.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a, n
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
		if r := b.get(a.url + "/private"); r.StatusCode != 200 {
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
