// Command bench runs Gatehouse and two peers side by side on loopback and
// drives the same workloads at each, printing for each route the requests
// per second, the ratios to two bare net/http handlers (the ceilings), to
// goth and to @auth/core, and each Go server's heap allocations per
// request (runtime.MemStats.Mallocs over the measured window, divided by
// the requests answered in it) and CPU time per request against the
// ceiling's (getrusage over the same window):
//
//   - session: GET /auth/session with a valid session cookie;
//   - anon: GET /auth/session without one;
//   - providers: GET /auth/providers;
//   - signin: the sign-in redirect, POST /auth/signin/{provider} with a
//     valid CSRF pair (GET /auth/signin/{provider} for goth, which has no
//     CSRF pair).
//
// The servers, each in a process of its own:
//
//   - bare: net/http answering the same session JSON with no auth,
//     encoding it per request (the ceiling);
//   - bytes: net/http answering the same JSON encoded once at start (the
//     stricter ceiling: Gatehouse answers a session read from a cache of
//     encoded JSON);
//   - gatehouse: the example's shape (Middleware around a mux, the
//     handler under /auth), JWT sessions, an OpenID Connect provider;
//   - goth: github.com/markbates/goth with gothic and its OpenID Connect
//     provider, the user kept in gothic's cookie store;
//   - node: node:http answering the same JSON with no auth, for Node's own
//     ceiling on the same machine;
//   - authjs: @auth/core behind a plain node:http server (authjs/), JWT
//     sessions, the session cookie minted with @auth/core/jwt's encode.
//
// The provider is authtest's in-process OpenID provider, run by this
// process; no workload calls it (Auth.js is given the authorization
// endpoint, so that it need not fetch discovery per sign-in).
//
// It needs Node.js and `npm ci` in bench/authjs; without node the authjs
// row is skipped. Run it with `make bench` or `go run . -d 10s` here.
//
// With -wrk it drives Gatehouse's routes with wrk instead (wrk.go): the
// ceiling ("bytes") measured before and after each route, p50 and p99
// latency, and the database session row on SQLite with the cookie cache,
// as the example runs it: `go run -mod=mod . -wrk`.
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

var cpuprofile string

// spinFor is -spin: the extra work a request of the wrk table's
// calibration row (the "spin" server).
var spinFor time.Duration

const (
	secret   = "bench-secret-bench-secret-bench-secret-0123456789"
	provider = "dev"
)

func main() {
	var (
		serve    = flag.String("serve", "", "internal: serve one of bare, bytes, gatehouse, goth and print its address")
		issuer   = flag.String("op", "", "internal: the provider's issuer")
		duration = flag.Duration("d", 5*time.Second, "how long each workload runs on each server")
		warmup   = flag.Duration("warmup", time.Second, "load before measuring")
		conns    = flag.Int("c", 16, "keep-alive connections")
		rounds   = flag.Int("rounds", 1, "measure each cell this many times and report the median")
		only     = flag.String("only", "bare,bytes,gatehouse,gatehouse-db,goth,node,authjs", "servers to run, comma-separated")
		onlyRt   = flag.String("routes", "session,anon,providers,signin", "routes to measure, comma-separated")
		node     = flag.String("node", "node", "the Node.js binary")
		verbose  = flag.Bool("v", false, "show the servers' own output")
		same     = flag.Bool("samecookie", false, "send the bare ceilings Gatehouse's Cookie header too, taking the cookie's cost on the wire off the ratio")
		spin     = flag.Duration("spin", 0, "with -wrk, add a calibration row: the ceiling doing this much more work a request (e.g. 3us)")
		useWrk   = flag.Bool("wrk", false, "drive the routes with wrk (on PATH) and print the wrk table (wrk.go); -d, -warmup, -c, -rounds and -routes (session, anon, providers, providers-anon, signin, db) apply")
	)
	flag.StringVar(&cpuprofile, "cpuprofile", "", "write each Go server's CPU profile to this file name + \".\" + server")
	flag.Parse()
	if *serve != "" {
		if err := runServer(*serve, *issuer, cpuprofile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	defer op.Close()
	if *useWrk {
		if !haveWrk() {
			fmt.Fprintln(os.Stderr, "bench: -wrk: no wrk on PATH")
			os.Exit(1)
		}
		var only []string
		if *onlyRt != flag.Lookup("routes").DefValue {
			only = strings.Split(*onlyRt, ",")
		}
		spinFor = *spin
		if err := wrkMain(op.Issuer(), only, *conns, *rounds, *duration, *warmup, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}

	// All servers run at once (idle ones cost nothing).
	names := strings.Split(*only, ",")
	var servers []*server
	for _, name := range names {
		srv, err := start(name, op.Issuer(), *node, *verbose)
		if errors.Is(err, errSkip) {
			fmt.Fprintf(os.Stderr, "bench: %s skipped: %v\n", name, err)
			continue
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", name, err)
			stopAll(servers)
			os.Exit(1)
		}
		servers = append(servers, srv)
	}
	if *same {
		sameCookie(servers)
	}
	// All servers run at once, and each route is measured on every server
	// in turn, starting one server further each round: a change in the
	// machine's other load falls on every server alike.
	runs := map[string]map[string][]float64{}
	allocRuns := map[string]map[string][]float64{}
	cpuRuns := map[string]map[string][]float64{}
	for _, srv := range servers {
		runs[srv.name], allocRuns[srv.name], cpuRuns[srv.name] = map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	}
	failed := map[*server]map[string]bool{}
	for round := range *rounds {
		for _, rt := range routes {
			if !slices.Contains(strings.Split(*onlyRt, ","), rt.name) {
				continue
			}
			for i := range servers {
				srv := servers[(i+round)%len(servers)]
				w, ok := srv.workload(rt.name)
				if !ok || failed[srv][w.name] {
					continue
				}
				if round == 0 {
					if err := probe(w); err != nil {
						fmt.Fprintf(os.Stderr, "bench: %s %s: %v\n", srv.name, w.name, err)
						if failed[srv] == nil {
							failed[srv] = map[string]bool{}
						}
						failed[srv][w.name] = true
						continue
					}
				}
				load(*warmup, *conns, w.req, w.ok)
				before, statsErr := srv.usage()
				rps, bad, n := load(*duration, *conns, w.req, w.ok)
				after, err := srv.usage()
				if bad > 0 {
					fmt.Fprintf(os.Stderr, "bench: %s %s: %d unexpected answers\n", srv.name, w.name, bad)
				}
				runs[srv.name][w.name] = append(runs[srv.name][w.name], rps)
				per := ""
				if statsErr == nil && err == nil && n > 0 {
					allocs := float64(after.mallocs-before.mallocs) / float64(n)
					cpu := float64(after.cpu-before.cpu) / float64(n)
					allocRuns[srv.name][w.name] = append(allocRuns[srv.name][w.name], allocs)
					cpuRuns[srv.name][w.name] = append(cpuRuns[srv.name][w.name], cpu)
					per = fmt.Sprintf(" %6.1f allocs/req", allocs)
				}
				fmt.Fprintf(os.Stderr, "bench: round %d %-12s %-9s %8.0f req/s%s\n", round+1, srv.name, w.name, rps, per)
			}
		}
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "bench: the provider had %d requests in all\n", len(op.Requests()))
	}
	stopAll(servers)
	report(os.Stdout, names, medians(runs), medians(allocRuns), medians(cpuRuns), *conns, *duration, *rounds)
}

// medians returns the median of each cell's measurements.
func medians(runs map[string]map[string][]float64) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for name, ws := range runs {
		out[name] = map[string]float64{}
		for w, rs := range ws {
			if len(rs) == 0 {
				continue
			}
			sort.Float64s(rs)
			out[name][w] = rs[len(rs)/2]
		}
	}
	return out
}

var errSkip = errors.New("skipped")

// sameCookie gives the bare servers the Cookie header of Gatehouse's
// signed-in browser, which they ignore: what is left between them and
// Gatehouse is then Gatehouse's own work.
func sameCookie(servers []*server) {
	var cookie string
	for _, s := range servers {
		if s.name == "gatehouse" {
			cookie = s.cookie
		}
	}
	for _, s := range servers {
		if s.name == "bare" || s.name == "bytes" {
			s.cookie = cookie
		}
	}
	fmt.Fprintf(os.Stderr, "bench: the bare servers get Gatehouse's %d-byte Cookie header\n", len(cookie))
}

func stopAll(servers []*server) {
	for _, s := range servers {
		s.stop()
	}
}

// route is a workload as the report shows it.
type route struct{ name, title string }

var routes = []route{
	{"session", "session read (GET /auth/session, signed in)"},
	{"anon", "anonymous session (GET /auth/session, no cookie)"},
	{"providers", "providers list (GET /auth/providers)"},
	{"signin", "sign-in redirect (POST /auth/signin/{provider})"},
}

// goals are each Gatehouse route's least ratio to the bare ceiling.
var goals = []struct {
	server, route string
	min           float64
}{
	{"gatehouse", "session", 0.90},
	{"gatehouse", "anon", 0.95},
	{"gatehouse", "providers", 0.95},
	{"gatehouse", "signin", 0.55},
	{"gatehouse-db", "session", 0.80},
}

// report prints a table per route: each server's req/s, its ratio to the
// two bare handlers' answer to the same route (JSON encoded per request,
// and pre-encoded bytes), to goth's and to @auth/core's, and the Go
// servers' allocations per request; then the goals. A sign-in is compared
// with the ceilings' session read (they have no sign-in).
func report(w io.Writer, names []string, res, allocs, cpu map[string]map[string]float64, conns int, d time.Duration, rounds int) {
	fmt.Fprintf(w, "\n%d keep-alive connections, %s per cell, median of %d rounds, GOMAXPROCS %d, %s/%s\n", conns, d, rounds, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	for _, rt := range routes {
		ceiling := rt.name
		if rt.name == "signin" {
			ceiling = "session"
		}
		fmt.Fprintf(w, "\n%s\n\n| server | req/s | vs bare | vs bytes | vs goth | vs @auth/core | allocs/req | CPU/req vs bare |\n|---|---:|---:|---:|---:|---:|---:|---:|\n", rt.title)
		for _, n := range names {
			v := res[n][rt.name]
			if v == 0 {
				continue
			}
			a := "–"
			if x, ok := allocs[n][rt.name]; ok {
				a = fmt.Sprintf("%.1f", x)
			}
			// The server's own CPU time per request against the ceiling's:
			// steadier than req/s when other jobs share the machine.
			fmt.Fprintf(w, "| %s | %.0f | %s | %s | %s | %s | %s | %s |\n", label[n], v,
				ratio(v, res["bare"][ceiling]), ratio(v, res["bytes"][ceiling]), ratio(v, res["goth"][rt.name]), ratio(v, res["authjs"][rt.name]), a,
				ratio(cpu["bare"][ceiling], cpu[n][rt.name]))
		}
	}
	fmt.Fprintf(w, "\ngoals, ratio to the bare ceiling:\n\n")
	for _, g := range goals {
		ceiling := g.route
		if g.route == "signin" {
			ceiling = "session"
		}
		v, to := res[g.server][g.route], res["bare"][ceiling]
		if v == 0 || to == 0 {
			continue
		}
		met := "met"
		if v/to < g.min {
			met = "NOT met"
		}
		fmt.Fprintf(w, "  %-44s %-10s %4.0f%% (goal ≥ %.0f%%; vs bytes %s, CPU/req vs bare %s) %s\n", label[g.server], g.route, 100*v/to, 100*g.min,
			ratio(v, res["bytes"][ceiling]), ratio(cpu["bare"][ceiling], cpu[g.server][g.route]), met)
	}
}

// ratio is v as a percentage of to, or "–" when either is missing.
func ratio(v, to float64) string {
	if to == 0 || v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v/to)
}

var label = map[string]string{
	"bare":         "net/http, no auth, JSON encoded per request (ceiling)",
	"bytes":        "net/http, no auth, pre-encoded JSON bytes (stricter ceiling)",
	"gatehouse":    "Gatehouse (JWT session)",
	"gatehouse-db": "Gatehouse (database session, cookie cache)",
	"goth":         "goth + gothic",
	"node":         "node:http, no auth (Node's own ceiling)",
	"authjs":       "@auth/core on node:http",
}

// server is a running server with what a client needs to load it.
type server struct {
	name    string
	origin  string
	stats   string // a Go server's allocation count endpoint (serveStats)
	cookie  string // Cookie header of a signed-in browser
	csrf    string // the CSRF token that goes with cookie, if any
	stopped func()
	handler http.Handler // the handler, when served in this process (conn_test.go)
}

func (s *server) stop() { s.stopped() }

// usage is what a Go server has used so far: heap allocations and CPU
// time (user and system, nanoseconds).
type usage struct{ mallocs, cpu uint64 }

// usage reads a Go server's usage from its stats port.
func (s *server) usage() (usage, error) {
	var u usage
	if s.stats == "" {
		return u, errors.New("no usage port")
	}
	resp, err := http.Get(s.stats + "/usage")
	if err != nil {
		return u, err
	}
	defer resp.Body.Close()
	_, err = fmt.Fscan(resp.Body, &u.mallocs, &u.cpu)
	return u, err
}

type workload struct {
	name string
	req  func() *http.Request
	ok   func(*http.Response) bool
}

// workload returns s's workload for the route named name.
func (s *server) workload(name string) (workload, bool) {
	for _, w := range s.workloads() {
		if w.name == name {
			return w, true
		}
	}
	return workload{}, false
}

func (s *server) workloads() []workload {
	get := func(path string) func() *http.Request {
		return func() *http.Request {
			r, _ := http.NewRequest(http.MethodGet, s.origin+path, nil)
			r.Header.Set("Cookie", s.cookie)
			return r
		}
	}
	status := func(codes ...int) func(*http.Response) bool {
		return func(r *http.Response) bool { return slices.Contains(codes, r.StatusCode) }
	}
	ws := []workload{{"session", get("/auth/session"), status(http.StatusOK)}}
	if s.name == "gatehouse-db" {
		return ws // the database session read, through the cookie cache
	}
	anon := func() *http.Request {
		r, _ := http.NewRequest(http.MethodGet, s.origin+"/auth/session", nil)
		return r
	}
	ws = append(ws, workload{"anon", anon, status(http.StatusOK)}, workload{"providers", get("/auth/providers"), status(http.StatusOK)})
	switch s.name {
	case "gatehouse", "authjs":
		body := url.Values{"csrfToken": {s.csrf}, "callbackUrl": {s.origin + "/"}}.Encode()
		ws = append(ws, workload{"signin", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, s.origin+"/auth/signin/"+provider, strings.NewReader(body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Cookie", s.cookie)
			return r
		}, status(http.StatusFound, http.StatusSeeOther)})
	case "goth":
		ws = append(ws, workload{"signin", get("/auth/signin/" + provider), status(http.StatusTemporaryRedirect)})
	}
	return ws
}

// start runs one server in a process of its own and readies a signed-in
// browser's cookies for it.
func start(name, issuer, node string, verbose bool) (*server, error) {
	var cmd *exec.Cmd
	switch name {
	case "bare", "bytes", "spin", "gatehouse", "gatehouse-db", "gatehouse-sqlite", "goth":
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(self, "-serve", name, "-op", issuer)
		if cpuprofile != "" {
			cmd.Args = append(cmd.Args, "-cpuprofile", cpuprofile+"."+name)
		}
		cmd.Env = append(os.Environ(), "SESSION_SECRET="+secret, "BENCH_SPIN="+spinFor.String())
	case "authjs", "node":
		if _, err := exec.LookPath(node); err != nil {
			return nil, fmt.Errorf("%w: no %s (Node.js) on PATH", errSkip, node)
		}
		dir := filepath.Join(sourceDir(), "authjs")
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@auth", "core")); err != nil {
			return nil, fmt.Errorf("%w: run `npm ci` in %s first", errSkip, dir)
		}
		cmd = exec.Command(node, filepath.Join(dir, "server.mjs"))
		cmd.Env = append(os.Environ(), "ISSUER="+issuer, "AUTH_SECRET="+secret,
			"CLIENT_ID="+authtest.DefaultClientID, "CLIENT_SECRET="+authtest.DefaultClientSecret, "NODE_ENV=production")
		if name == "node" {
			cmd.Env = append(cmd.Env, "BARE=1")
		}
	default:
		return nil, fmt.Errorf("unknown server %q", name)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if verbose {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{name: name, stopped: func() {
		// SIGTERM first, so that a Go server can write its CPU profile.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		t := time.AfterFunc(5*time.Second, func() { _ = cmd.Process.Kill() })
		_ = cmd.Wait()
		t.Stop()
	}}
	// The server prints "ready <origin>", and "cookie <Cookie header>"
	// when it minted a session cookie itself.
	lines := bufio.NewScanner(out)
	deadline := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	for s.origin == "" && lines.Scan() {
		k, v, _ := strings.Cut(lines.Text(), " ")
		switch k {
		case "cookie":
			s.cookie = v
		case "stats":
			s.stats = v
		case "ready":
			s.origin = v
		}
	}
	deadline.Stop()
	go io.Copy(io.Discard, out)
	if s.origin == "" {
		s.stop()
		return nil, fmt.Errorf("the server did not start (run with -v to see why)")
	}
	if err := s.prepare(); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// prepare gets the cookies a signed-in browser would send: Gatehouse's
// through a real sign-in at the provider; the CSRF pair from GET
// /auth/csrf for Gatehouse and Auth.js.
func (s *server) prepare() error {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	u, _ := url.Parse(s.origin)
	switch s.name {
	case "bare", "bytes", "spin":
		// The ceilings read no session; a cookie (any) tells them the
		// client is "signed in", its absence that it is anonymous.
		s.cookie = "authjs.session-token=signed-in"
	case "gatehouse", "gatehouse-db", "gatehouse-sqlite":
		token, err := csrfToken(c, s.origin)
		if err != nil {
			return err
		}
		resp, err := c.PostForm(s.origin+"/auth/signin/"+provider, url.Values{"csrfToken": {token}, "callbackUrl": {s.origin + "/"}})
		if err != nil {
			return err
		}
		resp.Body.Close()
		var parts []string
		for _, ck := range jar.Cookies(u) {
			parts = append(parts, ck.Name+"="+ck.Value)
		}
		s.cookie = strings.Join(parts, "; ")
		if !strings.Contains(s.cookie, "authjs.session-token=") {
			return fmt.Errorf("sign-in ended without a session (on %s)", resp.Request.URL)
		}
		s.csrf = token
	case "authjs":
		token, err := csrfToken(c, s.origin)
		if err != nil {
			return err
		}
		for _, ck := range jar.Cookies(u) {
			s.cookie += "; " + ck.Name + "=" + ck.Value
		}
		s.csrf = token
	}
	// Check the session answer once in full.
	r, _ := http.NewRequest(http.MethodGet, s.origin+"/auth/session", nil)
	r.Header.Set("Cookie", s.cookie)
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "alice@example.com") {
		return fmt.Errorf("GET /auth/session answered %d %s", resp.StatusCode, body)
	}
	return nil
}

// probe sends one request of w and reports an unexpected answer.
func probe(w workload) error {
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(w.req())
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	resp.Body.Close()
	if !w.ok(resp) {
		return fmt.Errorf("unexpected answer %d %q (Location %q)", resp.StatusCode, body, resp.Header.Get("Location"))
	}
	return nil
}

func csrfToken(c *http.Client, origin string) (string, error) {
	resp, err := c.Get(origin + "/auth/csrf")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct{ CSRFToken string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.CSRFToken == "" {
		return "", fmt.Errorf("GET /auth/csrf: %d %v", resp.StatusCode, err)
	}
	return v.CSRFToken, nil
}

// load sends requests on conns keep-alive connections for d and returns
// the rate of expected answers, the count of others, and of all answers.
func load(d time.Duration, conns int, req func() *http.Request, ok func(*http.Response) bool) (float64, int64, int64) {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var good, bad atomic.Int64
	var wg sync.WaitGroup
	begin := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				resp, err := c.Do(req())
				if err != nil {
					if ctx.Err() == nil {
						bad.Add(1)
					}
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if ok(resp) {
					good.Add(1)
				} else {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return float64(good.Load()) / time.Since(begin).Seconds(), bad.Load(), good.Load() + bad.Load()
}

// sourceDir is bench/, where authjs/ lives: the working directory when
// run with `go run .` or `make bench`.
func sourceDir() string {
	return cmp.Or(os.Getenv("BENCH_DIR"), ".")
}
