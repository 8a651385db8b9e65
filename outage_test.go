package gatehouse_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// outage is an adapter whose reads fail while down is set, as a
// database that stopped answering does, or hang until the context ends
// while stall is set.
type outage struct {
	adapter.Adapter
	down, stall atomic.Bool
}

var errDatabase = errors.New("dial tcp 10.0.0.5:5432: connect: connection refused")

func (o *outage) fail(ctx context.Context) error {
	if o.stall.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	if o.down.Load() {
		return errDatabase
	}
	return nil
}

func (o *outage) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	if err := o.fail(ctx); err != nil {
		return adapter.Session{}, adapter.User{}, err
	}
	return o.Adapter.GetSessionAndUser(ctx, token)
}

func (o *outage) GetUserByAccount(ctx context.Context, provider, id string) (adapter.User, error) {
	if err := o.fail(ctx); err != nil {
		return adapter.User{}, err
	}
	return o.Adapter.GetUserByAccount(ctx, provider, id)
}

// TestStoreOutage: while the database does not answer, a signed-in user
// is neither shown as signed out nor invited to sign in: GET
// {base}/session and a Require page answer 503 with Retry-After, the
// application can tell it from "nobody" (SessionErr), and no database
// text reaches the browser. When the database is back, the session is.
// Before: 200 null, and a redirect to the sign-in page.
func TestStoreOutage(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	var seen atomic.Value
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = store
		cfg.Session.Strategy = gatehouse.StrategyDatabase
	})
	b := newBrowser(t)
	signedIn(t, a, b)

	store.down.Store(true)
	for _, path := range []string{"/auth/session", "/private"} {
		resp := b.get(a.url + path)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s with the database down: %d (Retry-After %q) %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		if strings.Contains(string(body), "10.0.0.5") || strings.Contains(string(body), "refused") {
			t.Fatalf("%s shows the database error: %s", path, body)
		}
	}
	// The application sees why there is no session.
	probe := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store([2]any{gatehouse.SessionFrom(r.Context()) == nil, gatehouse.SessionErr(r.Context())})
	}))
	probe.ServeHTTP(httptest.NewRecorder(), b.appRequest(a))
	got := seen.Load().([2]any)
	if err, _ := got[1].(error); got[0] != true || !errors.Is(err, gatehouse.ErrStoreUnavailable) {
		t.Fatalf("SessionFrom nil %v, SessionErr %v; want nil and ErrStoreUnavailable", got[0], got[1])
	}

	store.down.Store(false)
	if s := b.session(a); s == nil {
		t.Fatal("the session did not come back with the database")
	}
}

// TestCallbackStalledDatabase: a sign-in whose database stalls ends within
// the adapter bound, as AdapterError (503), instead of hanging.
func TestCallbackStalledDatabase(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = store
		cfg.Session.Strategy = gatehouse.StrategyDatabase
	})
	b := newBrowser(t)
	store.stall.Store(true)
	start := time.Now()
	resp, _ := b.signIn(a, "dev", "/private")
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the sign-in took %v", d)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Request.URL.Query().Get("error") != "AdapterError" {
		t.Fatalf("ended on %s with %d, want the error page with AdapterError and 503", resp.Request.URL, resp.StatusCode)
	}
}

func (o *outage) GetUserByEmail(ctx context.Context, addr string) (adapter.User, error) {
	if err := o.fail(ctx); err != nil {
		return adapter.User{}, err
	}
	return o.Adapter.GetUserByEmail(ctx, addr)
}

// TestEmailSignInStalledDatabase: asking for a sign-in link while the
// database stalls ends within the store bound, on the error page, and no
// link is sent. Before, the e-mail form's adapter calls had no bound and
// the request hung with the database.
func TestEmailSignInStalledDatabase(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = store })
	b := newBrowser(t)
	b.csrf(m.app)
	store.stall.Store(true)
	start := time.Now()
	resp := m.requestLink(b, "ada@example.com", "/private")
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the request took %v", d)
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/auth/error?code=adapter&error=AdapterError" {
		t.Fatalf("the form answered %d to %q, want the error page with AdapterError", resp.StatusCode, loc)
	}
	if n := len(m.mail.Messages()); n != 0 {
		t.Fatalf("%d messages sent", n)
	}
}
