//go:build linux

package orgflow_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// BenchmarkSessionRead: GET {base}/session with organizations off, on
// with no active organization, and on with one, for JWT sessions,
// database sessions (memory adapter), and database sessions read
// through the cookie cache (memory and SQLite adapters). cpu-ns/op is
// the CPU time of the reading thread per read, steadier than ns/op on a
// shared machine; queries/op the session, renewal and active
// organization reads of the store per read (none through the cookie
// cache). Every site is built, and the process idle, before the first
// read is measured. Run in one go:
//
//	go test ./internal/orgflow -run XXX -bench SessionRead -count 5
func BenchmarkSessionRead(b *testing.B) {
	for _, st := range readStrategies(b) {
		for _, c := range st.cases {
			b.Run(st.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				queries := c.store.queries()
				// The CPU time of this goroutine's thread alone: the
				// providers' key generation and other tests' goroutines
				// run elsewhere.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				start := threadCPU()
				for b.Loop() {
					c.read(b)
				}
				b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(c.store.queries()-queries)/float64(b.N), "queries/op")
				if st.cache && c.store.queries() != queries {
					b.Errorf("%d store queries in %d reads through the cookie cache, want 0", c.store.queries()-queries, b.N)
				}
			})
		}
	}
}

// BenchmarkActiveOrganizationCost compares, for each strategy, the CPU
// time of a session read with an active organization against one with
// organizations off, in one run: rounds of b.N reads of each, taken in
// turn (the order swapped every round), after the process has gone
// idle, so that a change in the machine's other load falls on both
// alike. It reports the median of the rounds for each, and the median
// of the rounds' ratios as active-vs-off-% (the goal: under 5):
//
//	go test ./internal/orgflow -run XXX -bench ActiveOrganizationCost -benchtime 20000x
func BenchmarkActiveOrganizationCost(b *testing.B) {
	const rounds = 11
	for _, st := range readStrategies(b) {
		off, active := st.cases[0], st.cases[2]
		b.Run(st.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			measure := func(c readCase) float64 {
				start := threadCPU()
				for range b.N {
					c.read(b)
				}
				return float64(threadCPU()-start) / float64(b.N)
			}
			measure(off) // warm: the caches of opened tokens and of JSON
			measure(active)
			var offs, actives, ratios []float64
			for i := range rounds {
				var o, a float64
				if i%2 == 0 {
					o, a = measure(off), measure(active)
				} else {
					a, o = measure(active), measure(off)
				}
				offs, actives, ratios = append(offs, o), append(actives, a), append(ratios, a/o)
			}
			b.ReportMetric(median(offs), "off-cpu-ns/op")
			b.ReportMetric(median(actives), "active-cpu-ns/op")
			b.ReportMetric(100*(median(ratios)-1), "active-vs-off-%")
		})
	}
}

// readStrategy is a session strategy's sites and signed-in browsers:
// organizations off, on with no active organization, and on with one.
type readStrategy struct {
	name  string
	cache bool
	cases [3]readCase
}

// readCase is one browser's GET {base}/session on one site.
type readCase struct {
	name  string
	h     http.Handler
	store *counted
	req   *http.Request
}

// read answers c's request once, and checks the answer.
func (c readCase) read(b *testing.B) {
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, c.req)
	if w.Code != http.StatusOK || w.Body.Len() < 10 {
		b.Fatalf("GET /session: %d %s", w.Code, w.Body)
	}
}

// readStrategies builds every strategy's sites and browsers, then waits
// for the process to go idle: the providers' keys are made, some in the
// background, when the sites start.
func readStrategies(b *testing.B) []readStrategy {
	var out []readStrategy
	for _, strategy := range []struct {
		name  string
		db    bool
		cache bool
		open  func(testing.TB) orgAdapter
	}{
		{"jwt", false, false, func(testing.TB) orgAdapter { return memory.New() }},
		{"database", true, false, func(testing.TB) orgAdapter { return memory.New() }},
		{"cached", true, true, func(testing.TB) orgAdapter { return memory.New() }},
		{"cached-sqlite", true, true, func(t testing.TB) orgAdapter { return dbtest.SQLite(t, "") }},
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
		st := readStrategy{name: strategy.name, cache: strategy.cache}
		for i, c := range []struct {
			name  string
			s     *site
			store *counted
			c     *client
		}{
			{"off", off, offStore, off.user("plain@example.com", 0)},
			{"none", on, onStore, on.user("plain@example.com", 0)},
			{"active", on, onStore, owner},
		} {
			req := httptest.NewRequest("GET", c.s.srv.URL+"/auth/session", nil)
			c.c.get("/auth/session", nil) // the cookie cache's copy, when on
			for _, ck := range c.c.sessionCookies() {
				req.AddCookie(ck)
			}
			if len(req.Cookies()) != 1+btoi(strategy.cache) {
				b.Fatalf("cookies %v", req.Cookies())
			}
			st.cases[i] = readCase{name: c.name, h: c.s.h, store: c.store, req: req}
		}
		out = append(out, st)
	}
	quiesce()
	return out
}

// quiesce waits, at most ten seconds, until the process is idle.
func quiesce() {
	for range 200 {
		before := processCPU()
		time.Sleep(50 * time.Millisecond)
		if processCPU()-before < 5*time.Millisecond {
			return
		}
	}
}

// processCPU is the CPU time of the process so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median returns the median of v, which it sorts.
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
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
