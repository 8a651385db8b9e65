package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The wrk mode (-wrk) drives each Gatehouse route with wrk, an external
// load generator, instead of this program's Go client, and compares it
// with the stricter ceiling ("bytes": net/http writing the same
// pre-encoded JSON), measured just before and just after the route: the
// higher of the two counts. A second ceiling is sent the same Cookie
// header as the route, which takes the cookie's cost on the wire (and in
// net/http's header parsing) off the ratio. Every server runs in a
// process of its own, as does wrk.

// wrkRow is one row of the wrk table: a Gatehouse server's workload and
// the ceiling's workload it is compared with.
type wrkRow struct {
	name     string // for -routes
	title    string
	server   string // gatehouse or gatehouse-sqlite
	workload string // session, anon, providers, providers-anon or signin
	ceiling  string // the ceiling's workload
	goal     float64
}

var wrkRows = []wrkRow{
	{"session", "GET {base}/session, JWT session", "gatehouse", "session", "session", 0.90},
	{"anon", "GET {base}/session, no cookie", "gatehouse", "anon", "anon", 0.95},
	{"providers", "GET {base}/providers", "gatehouse", "providers", "providers", 0.95},
	// The same list fetched without cookies, as a front end on another
	// origin or a script does: the request the ceiling's row is sent.
	{"providers-anon", "GET {base}/providers, no cookie", "gatehouse", "providers-anon", "providers", 0.95},
	{"signin", "POST {base}/signin/{provider} → 303 (vs the ceiling's session read)", "gatehouse", "signin", "session", 0.60},
	{"db", "GET {base}/session, database session (SQLite) + cookie cache", "gatehouse-sqlite", "session", "session", 0.85},
}

// wrkResult is what one wrk run measured.
type wrkResult struct {
	rps      float64
	p50, p99 time.Duration
	bad      int64   // non-2xx/3xx answers and socket errors
	n        int64   // requests answered
	cpu      float64 // the server's CPU time per request, ns (0: unknown)
}

// wrkRequest is one workload as wrk sends it.
type wrkRequest struct {
	method, url, cookie, body, contentType string
}

// wrkWorkload returns the request of s's workload w as wrk sends it.
func (s *server) wrkWorkload(w string) (wrkRequest, bool) {
	switch w {
	case "session", "providers":
		return wrkRequest{method: "GET", url: s.origin + "/auth/" + w, cookie: s.cookie}, true
	case "anon":
		return wrkRequest{method: "GET", url: s.origin + "/auth/session"}, true
	case "providers-anon":
		return wrkRequest{method: "GET", url: s.origin + "/auth/providers"}, true
	case "signin":
		if s.csrf == "" {
			return wrkRequest{}, false
		}
		body := url.Values{"csrfToken": {s.csrf}, "callbackUrl": {s.origin + "/"}}.Encode()
		return wrkRequest{method: "POST", url: s.origin + "/auth/signin/" + provider, cookie: s.cookie, body: body,
			contentType: "application/x-www-form-urlencoded"}, true
	}
	return wrkRequest{}, false
}

// luaString quotes s as a Lua long string.
func luaString(s string) string {
	eq := ""
	for strings.Contains(s, "]"+eq+"]") {
		eq += "="
	}
	return "[" + eq + "[" + s + "]" + eq + "]"
}

// wrkScript is the Lua script of req: its method, headers and body, and a
// done function that prints the counts and percentiles on one line.
func wrkScript(req wrkRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = %s\n", luaString(req.method))
	if req.body != "" {
		fmt.Fprintf(&b, "wrk.body = %s\n", luaString(req.body))
	}
	if req.cookie != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Cookie\"] = %s\n", luaString(req.cookie))
	}
	if req.contentType != "" {
		fmt.Fprintf(&b, "wrk.headers[\"Content-Type\"] = %s\n", luaString(req.contentType))
	}
	b.WriteString(`done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.status + e.connect + e.read + e.write + e.timeout))
end
`)
	return b.String()
}

// runWrk runs wrk with one thread and conns connections for d on req.
func runWrk(req wrkRequest, conns int, d time.Duration) (wrkResult, error) {
	f, err := os.CreateTemp("", "bench-*.lua")
	if err != nil {
		return wrkResult{}, err
	}
	defer os.Remove(f.Name())
	if _, err := io.WriteString(f, wrkScript(req)); err != nil {
		f.Close()
		return wrkResult{}, err
	}
	f.Close()
	secs := max(1, int(d.Round(time.Second)/time.Second))
	cmd := exec.Command("wrk", "-t1", "-c"+strconv.Itoa(conns), "-d"+strconv.Itoa(secs)+"s", "-s", f.Name(), req.url)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v: %s", err, errOut.String())
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[0] != "RESULT" {
			continue
		}
		var n [5]int64
		for i := range n {
			if n[i], err = strconv.ParseInt(f[i+1], 10, 64); err != nil {
				return wrkResult{}, fmt.Errorf("wrk: %q: %v", sc.Text(), err)
			}
		}
		if n[1] == 0 {
			return wrkResult{}, fmt.Errorf("wrk ran for no time")
		}
		return wrkResult{rps: float64(n[0]) / (float64(n[1]) / 1e6), p50: time.Duration(n[2]) * time.Microsecond,
			p99: time.Duration(n[3]) * time.Microsecond, bad: n[4], n: n[0]}, nil
	}
	return wrkResult{}, fmt.Errorf("wrk printed no result: %s", out.String())
}

// wrkMain runs the wrk table over the rows named in only (all when
// empty), each route and each ceiling for d with conns connections, in
// rounds rounds per route: the median round is reported.
func wrkMain(issuer string, only []string, conns, rounds int, d, warmup time.Duration, verbose bool) error {
	servers := map[string]*server{}
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	rows := wrkRows
	if spinFor > 0 {
		// The calibration: the ceiling itself, spinning spinFor more a
		// request, measured as a route. Its ratio is what any route that
		// costs spinFor more than the ceiling can reach on this machine.
		rows = append(slices.Clip(rows), wrkRow{"spin", fmt.Sprintf("GET {base}/session on the ceiling + %v of work a request (calibration)", spinFor), "spin", "session", "session", 0})
	}
	for _, name := range []string{"bytes", "gatehouse", "gatehouse-sqlite", "spin"} {
		needed := name == "bytes"
		for _, r := range rows {
			needed = needed || (r.server == name && (len(only) == 0 || slices.Contains(only, r.name) || r.name == "spin"))
		}
		if !needed {
			continue
		}
		s, err := start(name, issuer, "", verbose)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		servers[name] = s
		if name != "bytes" {
			var sizes []string
			for _, c := range strings.Split(s.cookie, "; ") {
				k, v, _ := strings.Cut(c, "=")
				sizes = append(sizes, fmt.Sprintf("%s %d", k, len(v)))
			}
			fmt.Fprintf(os.Stderr, "bench: %s: a %d-byte Cookie header (%s)\n", name, len(s.cookie), strings.Join(sizes, ", "))
		}
	}
	ceil := servers["bytes"]
	type line struct {
		row                    wrkRow
		got, ceiling, sameCk   wrkResult
		ceilings, sameCeilings [2]float64
		lo, hi                 float64 // the lowest and highest ratio of the rounds
	}
	var lines []line
	for _, row := range rows {
		if len(only) != 0 && !slices.Contains(only, row.name) && row.name != "spin" { // -spin adds its row whatever -routes says
			continue
		}
		if _, ok := servers[row.server].wrkWorkload(row.workload); !ok {
			continue
		}
		creq, _ := ceil.wrkWorkload(row.ceiling)
		var req, same wrkRequest
		// fresh signs in anew, for a session cookie minted just now: one
		// replayed for minutes would outlive its cookie cache copy (five
		// minutes at most), and every request would then read the
		// database and be sent a new copy, which a browser keeps and wrk
		// does not. Each round starts with one.
		fresh := func() error {
			if err := servers[row.server].prepare(); err != nil {
				return fmt.Errorf("%s: a new sign-in: %w", row.server, err)
			}
			req, _ = servers[row.server].wrkWorkload(row.workload)
			// The ceiling sent the route's Cookie header (ignored, but
			// read off the wire and parsed into the request's header).
			same = creq
			same.cookie = req.cookie
			return nil
		}
		if err := fresh(); err != nil {
			return err
		}
		if warmup > 0 {
			for _, r := range []wrkRequest{creq, req} {
				if _, err := runWrk(r, conns, warmup); err != nil {
					return err
				}
			}
		}
		for _, x := range []struct {
			what string
			req  wrkRequest
		}{{row.server, req}, {"ceiling", creq}} {
			if in, out, set, err := wireSize(x.req, verbose); err == nil {
				fmt.Fprintf(os.Stderr, "bench: %-10s %-16s a %d-byte request, a %d-byte answer\n", row.name, x.what, in, out)
				if set > 0 && x.req.method == http.MethodGet {
					// A read that sets a cookie is answered so on every
					// request: wrk never sends it back, a browser would.
					fmt.Fprintf(os.Stderr, "bench: %-10s %-16s WARNING: the answer sets %d cookies; the load replays a stale one\n", row.name, x.what, set)
				}
			}
		}
		measure := func(s *server, what string, r wrkRequest) (wrkResult, error) {
			before, uerr := s.usage()
			res, err := runWrk(r, conns, d)
			after, uerr2 := s.usage()
			if uerr == nil && uerr2 == nil && res.n > 0 {
				res.cpu = float64(after.cpu-before.cpu) / float64(res.n)
			}
			if err == nil {
				fmt.Fprintf(os.Stderr, "bench: %-10s %-16s %-20s %8.0f req/s  p50 %-8s p99 %-9s CPU/req %5.1fµs\n", row.name, what, r.url[strings.LastIndex(r.url, "/auth"):], res.rps, res.p50, res.p99, res.cpu/1e3)
				if res.bad > 0 {
					fmt.Fprintf(os.Stderr, "bench: %d answers neither 2xx nor 3xx, or socket errors\n", res.bad)
				}
			}
			return res, err
		}
		// Each round measures the ceiling, the route and the ceiling
		// again; the round whose ratio is the median is reported.
		var tries []line
		for round := range max(rounds, 1) {
			if round > 0 {
				if err := fresh(); err != nil {
					return err
				}
			}
			var l line
			l.row = row
			for i := range 2 {
				if i == 1 {
					got, err := measure(servers[row.server], row.server, req)
					if err != nil {
						return err
					}
					l.got = got
				}
				c, err := measure(ceil, "ceiling", creq)
				if err != nil {
					return err
				}
				l.ceilings[i] = c.rps
				if c.rps > l.ceiling.rps {
					l.ceiling = c
				}
				sc := c
				if same.cookie != "" {
					if sc, err = measure(ceil, "ceiling+cookie", same); err != nil {
						return err
					}
				}
				l.sameCeilings[i] = sc.rps
				if sc.rps > l.sameCk.rps {
					l.sameCk = sc
				}
			}
			tries = append(tries, l)
		}
		slices.SortFunc(tries, func(a, b line) int {
			return cmp.Compare(a.got.rps/a.ceiling.rps, b.got.rps/b.ceiling.rps)
		})
		median := tries[len(tries)/2]
		// The spread of the rounds says how far one round's ratio can be
		// trusted on this machine at this time.
		median.lo = tries[0].got.rps / tries[0].ceiling.rps
		median.hi = tries[len(tries)-1].got.rps / tries[len(tries)-1].ceiling.rps
		lines = append(lines, median)
	}
	fmt.Printf("\nwrk -t1 -c%d -d%s, GOMAXPROCS %d, %s/%s, %d CPUs; ceiling: net/http writing pre-encoded JSON, measured before and after each route (the higher counts); the median of %d rounds\n\n",
		conns, d, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), max(rounds, 1))
	fmt.Println("| route | req/s | ceiling req/s (before, after) | vs ceiling | rounds' range | vs ceiling with same Cookie | p50 (ceiling) | p99 (ceiling) | p99 / ceiling's | CPU/req (ceiling) | goal |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, l := range lines {
		r := l.got.rps / l.ceiling.rps
		met := "met"
		if r < l.row.goal || float64(l.got.p99) > 1.5*float64(l.ceiling.p99) {
			met = "NOT met"
		}
		goal := fmt.Sprintf("≥ %.0f%%, p99 ≤ 1.5×: %s", 100*l.row.goal, met)
		if l.row.goal == 0 {
			goal = "—"
		}
		fmt.Printf("| %s | %.0f | %.0f (%.0f, %.0f) | %.0f%% | %.0f–%.0f%% | %.0f%% | %s (%s) | %s (%s) | %.2f | %.1fµs (%.1fµs) | %s |\n",
			l.row.title, l.got.rps, l.ceiling.rps, l.ceilings[0], l.ceilings[1], 100*r, 100*l.lo, 100*l.hi, 100*l.got.rps/l.sameCk.rps,
			l.got.p50, l.ceiling.p50, l.got.p99, l.ceiling.p99, float64(l.got.p99)/float64(l.ceiling.p99), l.got.cpu/1e3, l.ceiling.cpu/1e3, goal)
	}
	return nil
}

// wireSize sends req once, as wrk does, and returns the bytes of the
// request and of the answer (status line, headers and body) on the wire,
// and the count of cookies the answer sets.
func wireSize(req wrkRequest, show bool) (int, int, int, error) {
	raw, u, err := req.wire()
	if err != nil {
		return 0, 0, 0, err
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		return 0, 0, 0, err
	}
	defer c.Close()
	if _, err := io.WriteString(c, raw); err != nil {
		return 0, 0, 0, err
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var resp bytes.Buffer
	rd := bufio.NewReader(io.TeeReader(c, &resp))
	r, err := http.ReadResponse(rd, nil)
	if err != nil {
		return 0, 0, 0, err
	}
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	n := resp.Len() - rd.Buffered()
	if show {
		fmt.Fprintf(os.Stderr, "%s\n", resp.Bytes()[:n])
	}
	return len(raw), n, len(r.Header.Values("Set-Cookie")), nil
}

// wire returns req as wrk writes it on the wire, and its URL.
func (req wrkRequest) wire() (string, *url.URL, error) {
	u, err := url.Parse(req.url)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.method, u.RequestURI(), u.Host)
	if req.cookie != "" {
		fmt.Fprintf(&b, "Cookie: %s\r\n", req.cookie)
	}
	if req.contentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\r\n", req.contentType)
	}
	if req.body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(req.body))
	}
	b.WriteString("\r\n" + req.body)
	return b.String(), u, nil
}

// haveWrk reports whether wrk is on PATH.
func haveWrk() bool {
	_, err := exec.LookPath("wrk")
	return err == nil
}

// tempDB returns a path for a SQLite database file in a new temporary
// directory, and a function that removes it.
func tempDB() (string, func(), error) {
	dir, err := os.MkdirTemp("", "bench-sqlite-")
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(dir, "gatehouse.db"), func() { os.RemoveAll(dir) }, nil
}
