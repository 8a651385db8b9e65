package gatehouse_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
)

// eventLog records Events.Failure and Events.Refresh.
type eventLog struct {
	mu        sync.Mutex
	failures  []gatehouse.Error
	refreshes []string
}

func (l *eventLog) install(cfg *gatehouse.Config) {
	cfg.Events.Failure = func(_ context.Context, e *gatehouse.Error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.failures = append(l.failures, *e)
	}
	cfg.Events.Refresh = func(_ context.Context, provider string, err error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		s := provider + " ok"
		if err != nil {
			s = provider + " " + err.Error()
		}
		l.refreshes = append(l.refreshes, s)
	}
}

func (l *eventLog) last() gatehouse.Error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.failures) == 0 {
		return gatehouse.Error{}
	}
	return l.failures[len(l.failures)-1]
}

// TestFailureEvents: every failure the handler reports reaches
// Events.Failure with its type, code and provider, a refused rate limit
// included, for metrics and audit logs.
func TestFailureEvents(t *testing.T) {
	log := &eventLog{}
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		log.install(cfg)
		cfg.RateLimit = limit.NewMemory(2, time.Minute)
	})
	b := newBrowser(t)
	resp := b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {"forged"}})
	resp.Body.Close()
	if e := log.last(); e.Type != gatehouse.MissingCSRF || e.Code != "csrf" || e.Provider != "dev" {
		t.Fatalf("after a forged CSRF token: %+v", e)
	}
	for range 3 {
		resp = b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {"forged"}})
		resp.Body.Close()
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the fourth attempt answered %d", resp.StatusCode)
	}
	if e := log.last(); e.Type != gatehouse.TooManyRequests || e.Provider != "dev" || e.Step != "limit" {
		t.Fatalf("after the rate limit: %+v", e)
	}
}

// TestRefreshEvents: Events.Refresh hears of each refresh grant, good or
// refused.
func TestRefreshEvents(t *testing.T) {
	log := &eventLog{}
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, log.install)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	ctx := context.Background()

	expireStored(t, st)
	ts, err := a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Token(); err != nil {
		t.Fatal(err)
	}
	expireStored(t, st)
	a.op.SetFaults(authtest.Faults{TokenInvalidGrant: true})
	ts, _ = a.h.TokenSource(ctx, nil, b.appRequest(a), "dev")
	if _, err := ts.Token(); !errors.Is(err, gatehouse.ErrSignInAgain) {
		t.Fatalf("refused refresh: %v", err)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.refreshes) != 2 || log.refreshes[0] != "dev ok" || log.refreshes[1] == "dev ok" {
		t.Fatalf("refresh events %q", log.refreshes)
	}
}
