package gatehouse_test

// Benchmarks of the per-request paths (issue 8). Each comes in two forms:
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

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
)

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
	return a, br.c.Jar.Cookies(u)
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
		if w.Code != 200 || w.Body.String() != "null\n" || !strings.Contains(w.Header().Get("Set-Cookie"), "authjs.csrf-token=") {
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
