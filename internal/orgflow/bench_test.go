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

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// BenchmarkSessionRead: GET {base}/session with organizations off, on
// with no active organization, and on with one, for JWT and database
// sessions (memory adapter). cpu-ns/op is the CPU time of the reading
// thread per read, steadier than ns/op on a shared machine. Run in one
// go:
//
//	go test ./internal/orgflow -run XXX -bench SessionRead -count 5
func BenchmarkSessionRead(b *testing.B) {
	for _, strategy := range []struct {
		name string
		db   bool
	}{{"jwt", false}, {"database", true}} {
		off := newSite(b, memory.New(), strategy.db, nil)
		on := newSite(b, memory.New(), strategy.db, &organization.Config{})
		owner := on.user("owner@example.com", 0)
		org := owner.create("Acme")
		if st := owner.post("/auth/organizations/active", url.Values{"organizationId": {org}}, nil); st != 200 {
			b.Fatalf("activate: %d", st)
		}
		cases := []struct {
			name string
			s    *site
			c    *client
		}{
			{"off", off, off.user("plain@example.com", 0)},
			{"none", on, on.user("plain@example.com", 0)},
			{"active", on, owner},
		}
		for _, c := range cases {
			b.Run(strategy.name+"/"+c.name, func(b *testing.B) {
				req := httptest.NewRequest("GET", c.s.srv.URL+"/auth/session", nil)
				su, _ := url.Parse(c.s.srv.URL)
				for _, ck := range c.c.c.Jar.Cookies(su) {
					if ck.Name == cookies.NewNames(false, false).Session {
						req.AddCookie(ck)
					}
				}
				b.ReportAllocs()
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
