package redisstore_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// instance is one instance of the application: a Handler on its own
// loopback server.
type instance struct {
	url string // the server's base URL
}

// startInstance serves an application whose Gatehouse keeps sessions in
// Redis under prefix and users in the SQLite file at path, signing in with
// op, until the test ends.
func startInstance(t *testing.T, op *authtest.Server, path, prefix string) instance {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	h, err := gatehouse.New(gatehouse.Config{
		Secret: []string{testSecret},
		URL:    base + "/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "dev", Name: "Development", Type: providers.TypeOIDC,
			Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		}},
		Adapter:    redisstore.New(redistest.NewClient(t), dbtest.SQLite(t, path), redisstore.Options{Prefix: prefix}),
		Session:    gatehouse.SessionConfig{Strategy: gatehouse.StrategyDatabase},
		HTTPClient: &http.Client{Timeout: 5 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return instance{url: base}
}

// client is a browser: it keeps cookies (a cookie jar ignores ports, so
// the instances, all on 127.0.0.1, share them) and follows redirects.
type client struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// do sends req and returns the status and body of the last response.
func (b *client) do(req *http.Request) (int, string) {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func (b *client) get(u string) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return b.do(req)
}

func (b *client) post(u string, form url.Values) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// csrf returns the CSRF token of the instance (GET /auth/csrf).
func (b *client) csrf(in instance) string {
	b.t.Helper()
	_, body := b.get(in.url + "/auth/csrf")
	var v struct{ CSRFToken string }
	if err := json.Unmarshal([]byte(body), &v); err != nil || v.CSRFToken == "" {
		b.t.Fatalf("csrf: %v %q", err, body)
	}
	return v.CSRFToken
}

// email returns the e-mail address of the session GET /auth/session
// answers on the instance, or "" for none (null).
func (b *client) email(in instance) string {
	b.t.Helper()
	status, body := b.get(in.url + "/auth/session")
	if status != http.StatusOK {
		b.t.Fatalf("GET /auth/session: %d %s", status, body)
	}
	var s *struct {
		User struct{ Email string }
	}
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		b.t.Fatalf("GET /auth/session: %v: %s", err, body)
	}
	if s == nil {
		return ""
	}
	return s.User.Email
}

// replay returns a browser that sends only the cookies b has now for u:
// someone who kept a copy of them.
func (b *client) replay(u string) *client {
	c := newBrowser(b.t)
	target, _ := url.Parse(u)
	c.c.Jar.SetCookies(target, b.c.Jar.Cookies(target))
	return c
}

// countRows returns the number of rows of a table of the SQLite file.
func countRows(t *testing.T, path, table string) int {
	t.Helper()
	db, err := sql.Open("sqlite", sqlite.DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestInstances: three instances of an application share one SQLite
// file and one Redis. A person signs in through the first, is signed in
// on the second, signs out through the third, and is then refused on the
// first and the second, even with a copy of the old cookies.
func TestInstances(t *testing.T) {
	t.Parallel()
	c := redistest.NewClient(t)
	prefix := redistest.Prefix(t, c)
	path := filepath.Join(t.TempDir(), "gatehouse.db")
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(op.Close)
	var in [3]instance
	for i := range in {
		in[i] = startInstance(t, op, path, prefix)
	}
	sessionKeys := func() int {
		t.Helper()
		return len(redistest.KeysUnder(t, c, prefix+"session:"))
	}

	b := newBrowser(t)
	status, body := b.post(in[0].url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(in[0])}, "callbackUrl": {in[0].url + "/"}})
	if status != http.StatusOK || body != "home" {
		t.Fatalf("the sign-in through instance 1 ended with %d %q", status, body)
	}
	if got := b.email(in[1]); got != "alice@example.com" {
		t.Fatalf("instance 2 reads the session as %q, want alice@example.com", got)
	}
	if n := sessionKeys(); n != 1 {
		t.Fatalf("%d sessions in Redis, want 1", n)
	}
	if users, sessions := countRows(t, path, "gatehouse_users"), countRows(t, path, "gatehouse_sessions"); users != 1 || sessions != 0 {
		t.Fatalf("SQLite has %d users and %d sessions, want 1 and 0", users, sessions)
	}
	stolen := b.replay(in[0].url)
	if got := stolen.email(in[1]); got != "alice@example.com" {
		t.Fatalf("the copied cookies read the session as %q on instance 2, want alice@example.com", got)
	}

	status, body = b.post(in[2].url+"/auth/signout", url.Values{"csrfToken": {b.csrf(in[2])}})
	if status != http.StatusOK {
		t.Fatalf("the sign-out through instance 3 ended with %d %q", status, body)
	}
	if n := sessionKeys(); n != 0 {
		t.Fatalf("%d sessions in Redis after the sign-out, want 0", n)
	}
	for i, inst := range in[:2] {
		if got := b.email(inst); got != "" {
			t.Errorf("instance %d still has %q signed in", i+1, got)
		}
		if got := stolen.email(inst); got != "" {
			t.Errorf("instance %d takes the copied cookies of the revoked session (%q)", i+1, got)
		}
	}
}
