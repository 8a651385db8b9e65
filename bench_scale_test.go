package gatehouse_test

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
	return b.c.Jar.Cookies(u)
}
