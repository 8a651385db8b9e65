//go:build unix

package keyflow_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/limit"
)

// cpuTime is the CPU time this process has used: on a shared machine it
// says what a request cost better than wall time (the database server's
// own CPU is not in it).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRequest compares what the Middleware costs for a request with
// an API key and for one with a database session, on one adapter, in one
// run: each reads one row (the key with its user; the session with its
// user). The key also hashes its secret, asks Permissions, and counts
// against its rate limit.
//
//	go test ./internal/keyflow -run '^$' -bench Request -count 6
func BenchmarkRequest(b *testing.B) {
	b.Run("memory", func(b *testing.B) { benchRequest(b, memory.New()) })
	b.Run("postgres", func(b *testing.B) {
		schema, _ := dbtest.PostgresSchema(b, "gatehouse_keys")
		benchRequest(b, dbtest.Postgres(b, schema))
	})
}

func benchRequest(b *testing.B, store adapter.Adapter) {
	e := newEnv(b, store, nil, func(c *testConfig) {
		c.Session.Strategy = gatehouse.StrategyDatabase
		// The default limiter, with room for every request of the run.
		c.MachineAccess.RateLimit = limit.NewMemory(1<<30, time.Minute)
	})
	u, err := store.CreateUser(context.Background(), adapter.User{Email: "bench@example.com"})
	if err != nil {
		b.Fatal(err)
	}
	raw := sessions.RandomToken()
	if _, err := store.CreateSession(context.Background(), adapter.Session{Token: sessions.HashToken(raw), UserID: u.ID,
		Expires: time.Now().Add(time.Hour), CreatedAt: time.Now()}); err != nil {
		b.Fatal(err)
	}
	_, browser := e.user("keys@example.com")
	key, _ := browser.newKey("bench", "", nil)

	var seen bool
	app := e.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = gatehouse.SessionFrom(r.Context()) != nil || gatehouse.APIKeyFrom(r.Context()) != nil
	}))
	session := httptest.NewRequest(http.MethodGet, "/api", nil)
	session.AddCookie(&http.Cookie{Name: "authjs.session-token", Value: raw})
	session.AddCookie(&http.Cookie{Name: "authjs.csrf-token", Value: "present"}) // a browser has one: none is made
	withKey := httptest.NewRequest(http.MethodGet, "/api", nil)
	withKey.Header.Set("Authorization", "Bearer "+key)
	for _, bc := range []struct {
		name string
		r    *http.Request
	}{{"session", session}, {"api-key", withKey}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				seen = false
				app.ServeHTTP(httptest.NewRecorder(), bc.r)
				if !seen {
					b.Fatal("nobody was signed in")
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
