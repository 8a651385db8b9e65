package gatehouse_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
)

// TestSessionReadWritesNoCookie: reading a JWT session (GET
// {base}/session, a protected page) sets no cookie until UpdateAge has
// passed; then the refreshed cookie is written.
func TestSessionReadWritesNoCookie(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	for _, path := range []string{"/auth/session", "/private", "/auth/session"} {
		resp := b.get(a.url + path)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(resp.Header.Values("Set-Cookie")) != 0 {
			t.Fatalf("GET %s: %d, Set-Cookie %q", path, resp.StatusCode, resp.Header.Values("Set-Cookie"))
		}
	}

	rolling := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Session.UpdateAge = time.Nanosecond })
	b = newBrowser(t)
	b.signIn(rolling, "dev", "/")
	resp := b.get(rolling.url + "/auth/session")
	resp.Body.Close()
	if c := resp.Header.Get("Set-Cookie"); resp.StatusCode != 200 || c == "" {
		t.Fatalf("after UpdateAge: %d with no refreshed cookie", resp.StatusCode)
	}
}

// TestSessionJSONCache: the session JSON is encoded once per session, but
// never handed to another user, and a Session callback's additions are
// encoded on every request.
func TestSessionJSONCache(t *testing.T) {
	users := []authtest.User{
		{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
		{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true},
	}
	a := newApp(t, authtest.Options{Users: users}, nil)
	for _, u := range users {
		b := newBrowser(t)
		resp := b.post(a.url+"/auth/signin/dev?login_hint="+u.Subject, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
		b.follow(resp).Body.Close()
		for range 3 {
			s := b.session(a)
			if user, _ := s["user"].(map[string]any); user["email"] != u.Email || user["name"] != u.Name {
				t.Fatalf("%s's browser got session %v", u.Subject, s)
			}
		}
		r := b.get(a.url + "/auth/session")
		r.Body.Close()
		h := r.Header
		if h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "no-store" || len(h) != 4 {
			t.Fatalf("cached answer's headers: %v", h)
		}
	}

	var n atomic.Int64
	counted := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Callbacks.Session = func(_ context.Context, p gatehouse.SessionParams) (*gatehouse.Session, error) {
			s := p.Session
			s.Extra = map[string]any{"n": n.Add(1)}
			return &s, nil
		}
	})
	b := newBrowser(t)
	b.signIn(counted, "dev", "/")
	first, second := b.session(counted), b.session(counted)
	if first["n"] == second["n"] || first["n"] == nil {
		t.Fatalf("the Session callback's claim was not encoded per request: %v then %v", first["n"], second["n"])
	}
	r := b.get(counted.url + "/auth/session")
	r.Body.Close()
	if h := r.Header; h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("encoded answer's headers: %v", h)
	}
}

// TestRoutesFlat: the routes registered on one router (no mounted
// subrouter) answer as before: an unknown action is 404, a wrong method
// 405 with Allow (JSON to anything but a browser), a known one its own
// answer.
func TestRoutesFlat(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/auth/nope", 404},
		{"PUT", "/auth/session", 405},
		{"GET", "/auth/signin/dev", 200},
		{"GET", "/auth/session", 200},
		{"GET", "/auth/csrf", 200},
		{"GET", "/auth/providers", 200},
		// Near the routes answered without the router (Handler.direct).
		{"HEAD", "/auth/session", 405},
		{"GET", "/auth/session/", 404},
		{"GET", "/auth/providers/", 404},
		{"GET", "/auth//session", 404},
		{"POST", "/auth/providers", 405},
		{"POST", "/auth/signin/", 404},
		{"POST", "/auth/signin/dev/x", 404},
		{"POST", "/auth/signin", 405},
	} {
		req := httptest.NewRequest(c.method, a.url+c.path, nil)
		rec := httptest.NewRecorder()
		a.h.ServeHTTP(rec, req)
		if rec.Code != c.status || c.status >= 400 && rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %q, want %d", c.method, c.path, rec.Code, rec.Body, c.status)
		}
	}
}

// TestMiddlewareOwnRoutesReadAtUse: behind the Middleware, a request to
// the handler's own routes reads the database session only when
// something asks for it: none for {base}/providers, one for
// {base}/session (the route and a wrapper that asks SessionFrom share
// it), one for a page of the application.
func TestMiddlewareOwnRoutesReadAtUse(t *testing.T) {
	spy := newSpy(memory.New())
	var wrapped atomic.Pointer[gatehouse.Session]
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Adapter = spy })
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	h := a.h.Middleware(siteMux(a.h))
	wrapper := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wrapped.Store(gatehouse.SessionFrom(r.Context()))
		a.h.ServeHTTP(w, r)
	}))
	for _, c := range []struct {
		h     http.Handler
		path  string
		reads int
	}{
		{h, "/auth/providers", 0},
		{h, "/auth/csrf", 0},
		{h, "/auth/session", 1},
		{h, "/private", 1},
		{wrapper, "/auth/session", 1},
		{wrapper, "/auth/providers", 1},
	} {
		spy.reset()
		r := httptest.NewRequest("GET", a.url+c.path, nil)
		for _, ck := range b.c.Jar.Cookies(u) {
			r.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, r)
		if w.Code != 200 || spy.count("GetSessionAndUser") != c.reads {
			t.Errorf("GET %s: %d, %d session reads, want 200 and %d", c.path, w.Code, spy.count("GetSessionAndUser"), c.reads)
		}
		if c.path == "/auth/session" && !strings.Contains(w.Body.String(), `"email"`) {
			t.Errorf("GET %s: %s", c.path, w.Body)
		}
	}
	if s := wrapped.Load(); s == nil || s.User.Email == "" {
		t.Errorf("a wrapper of the handler got session %+v", s)
	}
}
