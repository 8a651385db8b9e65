package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/gorilla/sessions"
	"github.com/markbates/goth"
	"github.com/markbates/goth/gothic"
	"github.com/markbates/goth/providers/openidConnect"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// runServer serves one of the Go servers on a loopback port, printing
// "ready <origin>" (and "cookie <header>" when it mints the session
// cookie itself) on standard output. Its allocation count is served on a
// port of its own (serveStats), so that the measured handler is exactly
// the server's.
func runServer(name, issuer, profile string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	origin := "http://" + ln.Addr().String()
	h, cleanup, err := newHandler(name, origin, issuer)
	if err != nil {
		return err
	}
	defer cleanup()
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	stats, err := serveStats()
	if err != nil {
		return err
	}
	fmt.Println("stats " + stats)
	fmt.Println("ready " + origin)
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// newHandler returns the handler of the Go server called name, served at
// origin, and what to call once it is no longer served.
func newHandler(name, origin, issuer string) (http.Handler, func(), error) {
	var h http.Handler
	var err error
	cleanup := func() {}
	switch name {
	case "bare":
		h = bare()
	case "bytes":
		h, err = bareBytes(0)
	case "spin":
		// The ceiling doing d more work a request (-spin): what a route
		// costing d more than the ceiling gets in the wrk table.
		d, perr := time.ParseDuration(os.Getenv("BENCH_SPIN"))
		if perr != nil || d <= 0 {
			return nil, nil, fmt.Errorf("spin: BENCH_SPIN %q: want a duration", os.Getenv("BENCH_SPIN"))
		}
		h, err = bareBytes(d)
	case "gatehouse":
		h, err = gatehouseServer(origin, issuer, nil)
	case "gatehouse-db":
		// Database sessions (in memory) read through the cookie cache.
		h, err = gatehouseServer(origin, issuer, func(cfg *gatehouse.Config) {
			cfg.Adapter = memory.New()
			cfg.Session.CookieCache.Enabled = true
		})
	case "gatehouse-sqlite":
		// The example's setup: database sessions in a SQLite file, read
		// through the cookie cache.
		path, remove, terr := tempDB()
		if terr != nil {
			return nil, nil, terr
		}
		a, oerr := sqlite.Open(context.Background(), path)
		if oerr != nil {
			remove()
			return nil, nil, oerr
		}
		cleanup = func() { a.Close(); remove() }
		if err = a.Migrate(context.Background()); err == nil {
			h, err = gatehouseServer(origin, issuer, func(cfg *gatehouse.Config) {
				cfg.Adapter = a
				cfg.Session.CookieCache = gatehouse.CookieCache{Enabled: true}
			})
		}
	case "goth":
		h, err = gothServer(origin, issuer)
	default:
		err = fmt.Errorf("unknown server %q", name)
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return h, cleanup, nil
}

// serveStats serves GET /usage on a loopback port of its own and returns
// its origin: the process's count of heap allocations so far
// (runtime.MemStats.Mallocs) and its CPU time (getrusage, user and
// system, in nanoseconds), which the driver reads before and after a
// measured window.
func serveStats() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /usage", func(w http.ResponseWriter, r *http.Request) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "%d %d\n", m.Mallocs, ru.Utime.Nano()+ru.Stime.Nano())
	})
	go func() { _ = http.Serve(ln, mux) }()
	return "http://" + ln.Addr().String(), nil
}

// session is the JSON every server answers for the signed-in user.
type session struct {
	User struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		Image string `json:"image,omitempty"`
	} `json:"user"`
	Expires string `json:"expires"`
}

func alice() session {
	var s session
	s.User.Name, s.User.Email = "Alice", "alice@example.com"
	s.Expires = time.Now().Add(30 * 24 * time.Hour).UTC().Format(time.RFC3339Nano)
	return s
}

// bare is the ceiling: the same JSON, no auth.
func bare() http.Handler {
	s := alice()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /auth/session", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Cookie") == "" {
			io.WriteString(w, "null\n") // nobody signed in
			return
		}
		_ = json.NewEncoder(w).Encode(s)
	})
	mux.HandleFunc("GET /auth/providers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(providersList(r))
	})
	return mux
}

// providersList is the {base}/providers answer of one OpenID provider.
func providersList(r *http.Request) map[string]map[string]string {
	origin := "http://" + r.Host
	return map[string]map[string]string{provider: {"id": provider, "name": "Development", "type": "oidc",
		"signinUrl": origin + "/auth/signin/" + provider, "callbackUrl": origin + "/auth/callback/" + provider}}
}

// bareBytes is the stricter ceiling: the same JSON encoded once at start
// and written as bytes, as Gatehouse answers a session read from its cache
// of encoded JSON. With spin, each session read first keeps the CPU busy
// for that long (the calibration of the wrk table).
func bareBytes(spin time.Duration) (http.Handler, error) {
	b, err := json.Marshal(alice())
	if err != nil {
		return nil, err
	}
	b = append(b, '\n') // as json.Encoder writes it
	var list []byte
	mux := http.NewServeMux()
	mux.HandleFunc("GET /auth/session", func(w http.ResponseWriter, r *http.Request) {
		if spin > 0 {
			for t0 := time.Now(); time.Since(t0) < spin; {
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Cookie") == "" {
			io.WriteString(w, "null\n")
			return
		}
		_, _ = w.Write(b)
	})
	mux.HandleFunc("GET /auth/providers", func(w http.ResponseWriter, r *http.Request) {
		if list == nil { // one host in the benchmark: encoded once
			list, _ = json.Marshal(providersList(r))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(list)
	})
	return mux, nil
}

// gatehouseServer is the example's shape with JWT sessions and one OpenID
// Connect provider found by discovery (fetched once, then cached).
func gatehouseServer(origin, issuer string, mutate func(*gatehouse.Config)) (http.Handler, error) {
	cfg := gatehouse.Config{
		Secret: []string{secret},
		URL:    origin + "/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: provider, Name: "Development", Type: providers.TypeOIDC,
			Issuer: issuer, ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		}},
		// The load generator is one address making thousands of sign-ins
		// a second: the limiter's cost stays, its limit does not.
		RateLimit: limit.NewMemory(math.MaxInt, time.Minute),
	}
	if mutate != nil {
		mutate(&cfg)
	}
	auth, err := gatehouse.New(cfg)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(auth.BasePath()+"/", auth)
	mux.Handle("/private", auth.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	return auth.Middleware(mux), nil
}

// gothServer is goth with gothic: its OpenID Connect provider (discovery
// fetched once, at start), sign-in at GET /auth/signin/{provider}, and the
// user kept in gothic's cookie store (securecookie, HMAC-SHA256), as goth
// applications do after CompleteUserAuth. It mints that cookie for alice
// and prints it.
func gothServer(origin, issuer string) (http.Handler, error) {
	p, err := openidConnect.NewNamed(provider, authtest.DefaultClientID, authtest.DefaultClientSecret,
		origin+"/auth/callback/"+provider, issuer+"/.well-known/openid-configuration")
	if err != nil {
		return nil, err
	}
	p.SetName(provider) // NewNamed would call it "dev-oidc"
	goth.UseProviders(p)
	const userSession = "bench_user"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /auth/signin/{provider}", gothic.BeginAuthHandler)
	// goth has no providers list: what a goth application writes for one.
	mux.HandleFunc("GET /auth/providers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(providersList(r))
	})
	mux.HandleFunc("GET /auth/session", func(w http.ResponseWriter, r *http.Request) {
		sess, err := gothic.Store.Get(r, userSession)
		if err != nil || sess.IsNew {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "null\n")
			return
		}
		var s session
		s.User.Name, _ = sess.Values["name"].(string)
		s.User.Email, _ = sess.Values["email"].(string)
		s.Expires, _ = sess.Values["expires"].(string)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s)
	})

	// The cookie a goth application would set after the callback.
	r := httptest.NewRequest(http.MethodGet, origin+"/", nil)
	rec := httptest.NewRecorder()
	sess, err := gothic.Store.New(r, userSession)
	if err != nil && sess == nil {
		return nil, err
	}
	a := alice()
	sess.Values["name"], sess.Values["email"], sess.Values["expires"] = a.User.Name, a.User.Email, a.Expires
	sess.Options = &sessions.Options{Path: "/", MaxAge: 30 * 24 * 3600, HttpOnly: true}
	if err := sess.Save(r, rec); err != nil {
		return nil, err
	}
	cookie, _, _ := strings.Cut(rec.Header().Get("Set-Cookie"), ";")
	fmt.Println("cookie " + cookie)
	return mux, nil
}
