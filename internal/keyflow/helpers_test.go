package keyflow_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

const testSecret = "a-test-secret-of-at-least-thirty-two-bytes"

// grants is the test's permission model: what each user holds, changed
// by the tests while the handler runs.
type grants struct {
	mu sync.Mutex
	m  map[string]permission.Set
}

func (g *grants) set(userID string, s permission.Set) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.m[userID] = s
}

func (g *grants) of(_ context.Context, userID, _ string) (permission.Set, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m[userID], nil
}

// env is a site on a test server: the handler under /auth, and /api, an
// API behind the Middleware that answers who the request acts for.
type env struct {
	t      testing.TB
	h      *gatehouse.Handler
	srv    *httptest.Server
	mux    *http.ServeMux // the application's: the handler at /auth/
	store  adapter.Adapter
	grants *grants
}

// testConfig is the Config a test changes before newEnv builds the
// handler, with the machine access configuration apikey.Enable is given.
type testConfig struct {
	gatehouse.Config
	MachineAccess *apikey.Config
}

// newEnv serves a handler over store with MachineAccess on; mutate
// changes the Config first.
func newEnv(t testing.TB, store adapter.Adapter, g *grants, mutate func(*testConfig)) *env {
	t.Helper()
	if g == nil {
		g = &grants{m: map[string]permission.Set{}}
	}
	cfg := testConfig{Config: gatehouse.Config{
		Secret:  []string{testSecret},
		Adapter: store,
		Providers: []providers.Provider{credentials.Config{
			Fields: []credentials.Field{{Name: "u"}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) {
				return nil, nil
			}}},
	}, MachineAccess: &apikey.Config{Permissions: g.of}}
	if mutate != nil {
		mutate(&cfg)
	}
	cfg.Config.MachineAccess = apikey.Enable(*cfg.MachineAccess)
	h, err := gatehouse.New(cfg.Config)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, h: h, store: store, grants: g}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		p := gatehouse.APIKeyFrom(r.Context())
		if p == nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(p)
	})
	e.mux = mux
	e.srv = httptest.NewServer(h.Middleware(mux))
	t.Cleanup(e.srv.Close)
	return e
}

// user creates a user, signed in on the returned browser (a database
// session made in the store, its cookie in the browser's jar), holding
// perms.
func (e *env) user(email string, perms ...string) (string, *browser) {
	e.t.Helper()
	u, err := e.store.CreateUser(context.Background(), adapter.User{Email: email})
	if err != nil {
		e.t.Fatal(err)
	}
	e.grants.set(u.ID, permission.MustSet(perms...))
	return u.ID, e.signedIn(u.ID, time.Now())
}

// signedIn returns a new browser with a session of userID that signed
// in at at (a database session made in the store at that time, live for
// an hour more, its cookie in the browser's jar).
func (e *env) signedIn(userID string, at time.Time) *browser {
	e.t.Helper()
	b := e.browser()
	raw := sessions.RandomToken()
	if _, err := e.store.CreateSession(context.Background(), adapter.Session{Token: sessions.HashToken(raw), UserID: userID,
		Expires: time.Now().Add(time.Hour), CreatedAt: at}); err != nil {
		e.t.Fatal(err)
	}
	su, _ := url.Parse(e.srv.URL)
	b.jar.SetCookies(su, []*http.Cookie{{Name: "authjs.session-token", Value: raw, Path: "/"}})
	return b
}

// browser is a client with a cookie jar.
type browser struct {
	e    *env
	c    *http.Client
	jar  *cookiejar.Jar
	csrf string
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, jar: jar, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// on returns a browser of e with b's cookies and CSRF token: the same
// user reaching another instance (cookies do not tell ports apart).
func (b *browser) on(e *env) *browser {
	return &browser{e: e, jar: b.jar, c: b.c, csrf: b.token()}
}

// token returns the browser's CSRF token, fetched once.
func (b *browser) token() string {
	if b.csrf == "" {
		_, body := b.do(http.MethodGet, "/auth/csrf", nil, nil)
		b.csrf = body["csrfToken"].(string)
	}
	return b.csrf
}

// post posts form with the CSRF token to path, as a same-origin page.
func (b *browser) post(path string, form url.Values) (int, map[string]any) {
	if form == nil {
		form = url.Values{}
	}
	if form.Get("csrfToken") == "" {
		form.Set("csrfToken", b.token())
	}
	return b.do(http.MethodPost, path, form, http.Header{"Origin": {b.e.srv.URL}})
}

// do sends a request and decodes a JSON object answer (nil for another).
func (b *browser) do(method, path string, form url.Values, h http.Header) (int, map[string]any) {
	b.e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.e.srv.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// withKey sends a request carrying key, with no cookie.
func (e *env) withKey(method, path, key string, form url.Values) (int, map[string]any) {
	b := e.browser()
	return b.do(method, path, form, http.Header{"Authorization": {"Bearer " + key}})
}

// newKey makes a key for b with the permissions, and returns it and its id.
func (b *browser) newKey(name string, perms string, more url.Values) (string, string) {
	b.e.t.Helper()
	form := url.Values{"name": {name}, "permissions": {perms}}
	for k, v := range more {
		form[k] = v
	}
	status, out := b.post("/auth/api-keys", form)
	if status != http.StatusCreated {
		b.e.t.Fatalf("create = %d %v; want 201", status, out)
	}
	return out["key"].(string), out["id"].(string)
}
