//go:build linux

package orgflow_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// BenchmarkSessionRead: GET {base}/session with organizations off, on
// with no active organization, and on with one, for JWT sessions,
// database sessions (memory adapter), and database sessions read
// through the cookie cache (memory and SQLite adapters). cpu-ns/op is
// the CPU time of the reading thread per read, steadier than ns/op on a
// shared machine; queries/op the session, renewal and active
// organization reads of the store per read (none through the cookie
// cache). Run in one go:
//
//	go test ./internal/orgflow -run XXX -bench SessionRead -count 5
func BenchmarkSessionRead(b *testing.B) {
	for _, strategy := range []struct {
		name  string
		db    bool
		cache bool
		open  func(testing.TB) orgAdapter
	}{
		{"jwt", false, false, func(testing.TB) orgAdapter { return memory.New() }},
		{"database", true, false, func(testing.TB) orgAdapter { return memory.New() }},
		{"cached", true, true, func(testing.TB) orgAdapter { return memory.New() }},
		{"cached-sqlite", true, true, func(t testing.TB) orgAdapter { return sqliteAdapter(t) }},
	} {
		var mutate func(*gatehouse.SessionConfig)
		if strategy.cache {
			mutate = cookieCache
		}
		offStore, onStore := &counted{orgAdapter: strategy.open(b)}, &counted{orgAdapter: strategy.open(b)}
		off := newSiteWith(b, offStore, strategy.db, nil, mutate)
		on := newSiteWith(b, onStore, strategy.db, &organization.Config{}, mutate)
		owner := on.user("owner@example.com", 0)
		org := owner.create("Acme")
		if st := owner.post("/auth/organizations/active", url.Values{"organizationId": {org}}, nil); st != 200 {
			b.Fatalf("activate: %d", st)
		}
		cases := []struct {
			name  string
			s     *site
			store *counted
			c     *client
		}{
			{"off", off, offStore, off.user("plain@example.com", 0)},
			{"none", on, onStore, on.user("plain@example.com", 0)},
			{"active", on, onStore, owner},
		}
		for _, c := range cases {
			b.Run(strategy.name+"/"+c.name, func(b *testing.B) {
				req := httptest.NewRequest("GET", c.s.srv.URL+"/auth/session", nil)
				c.c.get("/auth/session", nil) // the cookie cache's copy, when on
				for _, ck := range c.c.sessionCookies() {
					req.AddCookie(ck)
				}
				if len(req.Cookies()) != 1+btoi(strategy.cache) {
					b.Fatalf("cookies %v", req.Cookies())
				}
				b.ReportAllocs()
				queries := c.store.queries()
				// The CPU time of this goroutine's thread alone: the
				// providers' key generation and other tests' goroutines
				// run elsewhere.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				start := threadCPU()
				for b.Loop() {
					w := httptest.NewRecorder()
					c.s.h.ServeHTTP(w, req)
					if w.Code != http.StatusOK || w.Body.Len() < 10 {
						b.Fatalf("GET /session: %d %s", w.Code, w.Body)
					}
				}
				b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(c.store.queries()-queries)/float64(b.N), "queries/op")
				if strategy.cache && c.store.queries() != queries {
					b.Errorf("%d store queries in %d reads through the cookie cache, want 0", c.store.queries()-queries, b.N)
				}
			})
		}
	}
}

// threadCPU is the CPU time of the calling thread
// (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
