package orgflow_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/session"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// statements are the application's, as a project tracker declares them.
var statements = permission.Declared{"project": {"read", "create", "delete"}, "billing": {"update"}}

// site is a Handler with organizations on, served with two application
// routes: /app/delete behind RequirePermission("project:delete") and
// /app/can answering Can(r, "project:delete").
type site struct {
	t     testing.TB
	srv   *httptest.Server
	h     *gatehouse.Handler
	a     adapter.Adapter
	db    bool
	codec *cookies.Codec[session.Token]
}

// newSite serves a Handler on a (JWT sessions, or database sessions with
// db) with oc, and the providers extra beside the development one.
func newSite(t testing.TB, a adapter.Adapter, db bool, oc *organization.Config, extra ...providers.Provider) *site {
	t.Helper()
	return newSiteWith(t, a, db, oc, nil, extra...)
}

// newSiteWith is newSite with the session configuration's changes made by
// mutate (nil for none): the cookie cache, for one.
func newSiteWith(t testing.TB, a adapter.Adapter, db bool, oc *organization.Config, mutate func(*gatehouse.SessionConfig), extra ...providers.Provider) *site {
	t.Helper()
	if oc != nil && oc.Statements == nil {
		oc.Statements = statements
	}
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	strategy := gatehouse.StrategyJWT
	if db {
		strategy = gatehouse.StrategyDatabase
	}
	sc := gatehouse.SessionConfig{Strategy: strategy}
	if mutate != nil {
		mutate(&sc)
	}
	cfg := gatehouse.Config{Secret: []string{testSecret}, URL: base + "/auth", Adapter: a,
		Session: sc, Providers: append(devProviders(t), extra...), RateLimit: noLimit{}}
	if oc != nil {
		cfg.Organizations = organization.Enable(*oc)
	}
	h, err := gatehouse.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/app/delete", h.RequirePermission("project:delete")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "deleted")
	})))
	mux.HandleFunc("/app/can", func(w http.ResponseWriter, r *http.Request) {
		ok, err := h.Can(r, "project:delete")
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		json.NewEncoder(w).Encode(ok)
	})
	return startSite(t, srv, mux, h, a, db)
}

// startSite starts srv serving handler and returns it as the site of h
// on a (db: with database sessions).
func startSite(t testing.TB, srv *httptest.Server, handler http.Handler, h *gatehouse.Handler, a adapter.Adapter, db bool) *site {
	t.Helper()
	srv.Config.Handler = handler
	srv.Start()
	t.Cleanup(srv.Close)
	codec, err := sessions.NewCodec([]string{testSecret}, cookies.NewNames(false, false).Session)
	if err != nil {
		t.Fatal(err)
	}
	return &site{t: t, srv: srv, h: h, a: a, db: db, codec: codec}
}

// devProviders is an OpenID provider in the test's process.
func devProviders(t testing.TB) []providers.Provider {
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(op.Close)
	return []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret}}
}

// noLimit lets every request through: the tests send many.
type noLimit struct{}

func (noLimit) Reserve(context.Context, string) (time.Duration, error) { return 0, nil }
func (noLimit) Release(context.Context, string) error                  { return nil }
func (noLimit) Reset(context.Context, string) error                    { return nil }

// client is a signed-in browser of a user.
type client struct {
	s    *site
	id   string
	c    *http.Client
	csrf string
	lang string // Accept-Language, "" for none
}

// user stores a user with a verified address and signs them in, their
// sign-in authAge ago.
func (s *site) user(email string, authAge time.Duration) *client {
	s.t.Helper()
	verified := time.Now()
	u, err := s.a.CreateUser(s.t.Context(), adapter.User{Email: email, EmailVerified: &verified})
	if err != nil {
		s.t.Fatal(err)
	}
	return s.signIn(u, authAge)
}

// signIn returns a browser signed in as u.
func (s *site) signIn(u adapter.User, authAge time.Duration) *client {
	s.t.Helper()
	now := time.Now()
	var value string
	if s.db {
		value = randomHex()
		_, err := s.a.CreateSession(s.t.Context(), adapter.Session{Token: sessions.HashToken(value), UserID: u.ID,
			Expires: now.Add(time.Hour), CreatedAt: now.Add(-authAge)})
		if err != nil {
			s.t.Fatal(err)
		}
	} else {
		var err error
		value, err = s.codec.Encode(session.Token{Subject: u.ID, Email: u.Email, IssuedAt: now.Unix(), Expires: now.Add(time.Hour).Unix(),
			ID: randomHex(), AuthTime: now.Add(-authAge).Unix()})
		if err != nil {
			s.t.Fatal(err)
		}
	}
	return s.browser(u.ID, value)
}

// browser returns a client whose session cookie is value, with a CSRF
// token.
func (s *site) browser(id, value string) *client {
	jar, _ := cookiejar.New(nil)
	su, _ := url.Parse(s.srv.URL)
	jar.SetCookies(su, []*http.Cookie{{Name: cookies.NewNames(false, false).Session, Value: value, Path: "/"}})
	c := &client{s: s, id: id, c: &http.Client{Jar: jar}}
	var got struct{ CSRFToken string }
	if st := c.get("/auth/csrf", &got); st != 200 {
		s.t.Fatalf("GET /auth/csrf: %d", st)
	}
	c.csrf = got.CSRFToken
	return c
}

func randomHex() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// do sends a request and decodes its JSON answer into out (when not
// nil); it returns the status.
func (c *client) do(method, path string, form url.Values, out any) int {
	c.s.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.s.srv.URL+path, body)
	if c.lang != "" {
		req.Header.Set("Accept-Language", c.lang)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.s.srv.URL)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		_ = json.Unmarshal(b, out)
	}
	return resp.StatusCode
}

func (c *client) get(path string, out any) int { return c.do("GET", path, nil, out) }

// post sends form with the CSRF token.
func (c *client) post(path string, form url.Values, out any) int {
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrfToken", c.csrf)
	return c.do("POST", path, form, out)
}

// errBody is an error answer.
type errBody struct {
	Error, Code, Reason string
}

// create makes an organization owned by c and returns its id.
func (c *client) create(name string) string {
	c.s.t.Helper()
	var o organization.Organization
	if st := c.post("/auth/organizations", url.Values{"name": {name}}, &o); st != http.StatusCreated {
		c.s.t.Fatalf("create %s: %d", name, st)
	}
	return o.ID
}

// invite invites email to org with role and returns the invitation and
// its link's token (no sender: the link is in the answer).
func (c *client) invite(org, email, role string) (organization.Invitation, string) {
	c.s.t.Helper()
	var out struct {
		Invitation organization.Invitation
		Link       string
	}
	if st := c.post("/auth/organizations/"+org+"/invitations", url.Values{"email": {email}, "role": {role}}, &out); st != http.StatusCreated {
		c.s.t.Fatalf("invite %s: %d", email, st)
	}
	u, err := url.Parse(out.Link)
	if err != nil || u.Query().Get("token") == "" {
		c.s.t.Fatalf("link %q", out.Link)
	}
	return out.Invitation, u.Query().Get("token")
}

// join makes a user of email a member of org with role, invited by c.
func (c *client) join(org, email, role string) *client {
	c.s.t.Helper()
	_, token := c.invite(org, email, role)
	m := c.s.user(email, 0)
	if st := m.post("/auth/organizations/invitation/accept", url.Values{"token": {token}}, nil); st != 200 {
		c.s.t.Fatalf("accept by %s: %d", email, st)
	}
	return m
}

// view returns org as c sees it.
func (c *client) view(org string) organization.View {
	c.s.t.Helper()
	var v organization.View
	if st := c.get("/auth/organizations/"+org, &v); st != 200 {
		c.s.t.Fatalf("GET organization %s: %d", org, st)
	}
	return v
}

// pgAdapter returns a migrated PostgreSQL adapter on a schema of the
// test's own, and a second adapter on the same schema (another instance),
// or skips the test without a server.
func pgAdapter(t *testing.T) (*postgres.Adapter, *postgres.Adapter) {
	t.Helper()
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_orgflow")
	return dbtest.Postgres(t, schema), postgres.New(dbtest.PostgresPool(t, schema, nil))
}

// stores are the adapters the route tests run on.
func stores(t *testing.T) map[string]func(t *testing.T) adapter.Adapter {
	return map[string]func(t *testing.T) adapter.Adapter{
		"memory":   func(*testing.T) adapter.Adapter { return memory.New() },
		"postgres": func(t *testing.T) adapter.Adapter { a, _ := pgAdapter(t); return a },
		// Sessions in Redis, organizations in the primary: a second
		// feature beside them.
		"redisstore": func(t *testing.T) adapter.Adapter {
			c := redistest.NewClient(t)
			return redisstore.New(c, memory.New(), redisstore.Options{Prefix: redistest.Prefix(t, c)})
		},
	}
}

// cookieCache turns the cookie cache on.
func cookieCache(sc *gatehouse.SessionConfig) { sc.CookieCache = gatehouse.CookieCache{Enabled: true} }

// orgAdapter is an adapter with organizations.
type orgAdapter interface {
	adapter.Adapter
	organization.Store
}

// counted counts the store's reads a session read can make: the session
// row (and its renewal) and the active organization.
type counted struct {
	orgAdapter
	sessions, renewals, active atomic.Int64
}

func (c *counted) GetSessionAndUser(ctx context.Context, key string) (adapter.Session, adapter.User, error) {
	c.sessions.Add(1)
	return c.orgAdapter.GetSessionAndUser(ctx, key)
}

func (c *counted) UpdateSession(ctx context.Context, key string, expires time.Time) (adapter.Session, error) {
	c.renewals.Add(1)
	return c.orgAdapter.UpdateSession(ctx, key, expires)
}

func (c *counted) ActiveOrganization(ctx context.Context, key string) (string, error) {
	c.active.Add(1)
	return c.orgAdapter.ActiveOrganization(ctx, key)
}

// queries is the number of counted calls so far.
func (c *counted) queries() int64 { return c.sessions.Load() + c.renewals.Load() + c.active.Load() }

// sessionCookies returns c's session cookie and its cookie cache copy
// (when it has one), for requests made without c's jar.
func (c *client) sessionCookies() []*http.Cookie {
	su, _ := url.Parse(c.s.srv.URL)
	names := cookies.NewNames(false, false)
	var out []*http.Cookie
	for _, ck := range c.c.Jar.Cookies(su) {
		if ck.Name == names.Session || ck.Name == names.SessionData {
			out = append(out, ck)
		}
	}
	return out
}
