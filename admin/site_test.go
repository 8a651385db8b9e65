package admin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// The end-to-end harness: a site using Gatehouse with every sign-in kind
// the test tools offer (OpenID Connect through authtest, e-mail links,
// the application's credentials, password accounts), served on loopback,
// and browsers with cookie jars.

const secret = "admin-test-secret-admin-test-secret-0123"

// The users of the OpenID provider; admin@ is made an administrator by
// signIn's callers through the Store.
var opUsers = []authtest.User{
	{Subject: "admin", Name: "Ada Admin", Email: "admin@example.com", EmailVerified: true},
	{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true},
	{Subject: "carol", Name: "Carol", Email: "carol@example.com", EmailVerified: true},
}

// hasher is cheap: the tests hash and verify a few passwords.
var hasher, _ = password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0)

// site is one instance of the application.
type site struct {
	t     testing.TB
	h     *gatehouse.Handler
	url   string
	db    adapter.Adapter
	store admin.Store
	links chan string // e-mail sign-in links sent
	ev    *recorder
}

// recorder keeps the admin events told.
type recorder struct {
	mu     sync.Mutex
	events []admin.Event
}

func (r *recorder) add(_ context.Context, e admin.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []admin.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]admin.Event(nil), r.events...)
}

// newOP starts the OpenID provider the sites sign in with.
func newOP(t testing.TB) *authtest.Server {
	t.Helper()
	op := authtest.NewServer(authtest.Options{AutoApprove: true, Users: opUsers})
	t.Cleanup(op.Close)
	return op
}

// newSite serves an instance on loopback, storing in db; mutate changes
// its Config last.
func newSite(t testing.TB, op *authtest.Server, db adapter.Adapter, mutate func(*gatehouse.Config)) *site {
	t.Helper()
	s := &site{t: t, db: db, store: db.(admin.Store), links: make(chan string, 10), ev: &recorder{}}
	srv := httptest.NewUnstartedServer(nil)
	s.url = "http://" + srv.Listener.Addr().String()
	cfg := gatehouse.Config{
		Secret: []string{secret},
		URL:    s.url + "/auth",
		Providers: []providers.Provider{
			providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
				Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret},
			email.Config{SendVerificationRequest: func(_ context.Context, req email.VerificationRequest) error {
				s.links <- req.URL
				return nil
			}},
			credentials.Config{
				Fields: []credentials.Field{{Name: "username", Label: "Username", Required: true}},
				Authorize: func(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
					return &profile.User{ID: "cred-" + c["username"], Email: c["username"] + "@creds.example"}, nil
				},
			},
			passwordaccount.Config{Hasher: hasher, Send: func(context.Context, passwordaccount.Message) error { return nil }},
		},
		Adapter:    db,
		Admin:      admin.Enable(admin.Config{}),
		HTTPClient: &http.Client{Timeout: 5 * time.Second},
	}
	cfg.Events.Admin = s.ev.add
	if mutate != nil {
		mutate(&cfg)
	}
	h, err := gatehouse.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.h = h
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/private", h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	// /whoami: the session the application sees, its active organization,
	// and what Handler.Can says of organization:update there.
	mux.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
		sess := gatehouse.SessionFrom(r.Context())
		can, err := h.Can(r, "organization:update")
		out := map[string]any{"can": can, "canErr": fmt.Sprint(err)}
		if sess != nil {
			out["email"], out["org"] = sess.User.Email, sess.ActiveOrganizationID
		}
		json.NewEncoder(w).Encode(out)
	})
	mux.Handle("/can-update", h.RequirePermission("organization:update")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "allowed "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	srv.Config.Handler = h.Middleware(mux)
	srv.Start()
	t.Cleanup(srv.Close)
	return s
}

// browser keeps cookies and follows redirects one at a time.
type browser struct {
	*sitetest.Browser
	t testing.TB
	c *http.Client
}

func newBrowser(t testing.TB) *browser {
	b := sitetest.NewBrowser(t)
	b.Client.Timeout = 10 * time.Second
	return &browser{Browser: b, t: t, c: b.Client}
}

func (b *browser) post(u string, form url.Values) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p, err := url.Parse(u); err == nil {
		req.Header.Set("Origin", p.Scheme+"://"+p.Host)
	}
	req.Header.Set("User-Agent", "admin-test/1.0")
	return b.Do(req)
}

func (b *browser) csrf(s *site) string {
	b.t.Helper()
	resp := b.Get(s.url + "/auth/csrf")
	defer resp.Body.Close()
	var v struct{ CSRFToken string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.CSRFToken == "" {
		b.t.Fatalf("csrf: %v", err)
	}
	return v.CSRFToken
}

// signIn signs b in at s through the provider kind as the user who,
// and returns where it ended and the page's body.
func (b *browser) signIn(s *site, kind, who string) (*http.Response, string) {
	b.t.Helper()
	token := b.csrf(s)
	switch kind {
	case "oidc":
		return b.FollowBody(b.post(s.url+"/auth/signin/dev?"+url.Values{"login_hint": {who}}.Encode(),
			url.Values{"csrfToken": {token}, "callbackUrl": {"/private"}}))

	case "email":
		resp := b.post(s.url+"/auth/signin/email", url.Values{"csrfToken": {token}, "email": {who}, "callbackUrl": {"/private"}})
		resp.Body.Close()
		select {
		case link := <-s.links:
			return b.FollowBody(b.Get(link))
		case <-time.After(5 * time.Second):
			b.t.Fatal("no e-mail link sent")
		}
	case "credentials":
		return b.FollowBody(b.post(s.url+"/auth/callback/credentials",
			url.Values{"csrfToken": {token}, "callbackUrl": {"/private"}, "username": {who}}))

	case "password":
		return b.FollowBody(b.post(s.url+"/auth/callback/password",
			url.Values{"csrfToken": {token}, "callbackUrl": {"/private"}, "email": {who}, "password": {"correct horse battery"}}))

	}
	b.t.Fatalf("unknown sign-in kind %q", kind)
	return nil, ""
}

// mustSignIn signs b in and fails the test unless it landed on /private.
func (b *browser) mustSignIn(s *site, kind, who string) {
	b.t.Helper()
	resp, body := b.signIn(s, kind, who)
	if resp.Request.URL.Path != "/private" || !strings.HasPrefix(body, "hello ") {
		b.t.Fatalf("sign-in %s as %s ended at %s: %d %q", kind, who, resp.Request.URL, resp.StatusCode, body)
	}
}

// private reports whether b gets the signed-in page of s.
func (b *browser) private(s *site) bool {
	b.t.Helper()
	resp := b.Get(s.url + "/private")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK && strings.HasPrefix(string(body), "hello ")
}

// sessionUser returns the e-mail address GET {base}/session shows, "" for
// no session.
func (b *browser) sessionUser(s *site) string {
	b.t.Helper()
	resp := b.Get(s.url + "/auth/session")
	defer resp.Body.Close()
	var v *struct {
		User struct{ Email string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		b.t.Fatal(err)
	}
	if v == nil {
		return ""
	}
	return v.User.Email
}

// adminPost posts an admin action for the user id and returns the status
// and the JSON answer.
func (b *browser) adminPost(s *site, id, action string, form url.Values) (int, map[string]any) {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if form.Get("csrfToken") == "" {
		form.Set("csrfToken", b.csrf(s))
	}
	return decode(b.t, b.post(s.url+"/auth/admin/users/"+url.PathEscape(id)+"/"+action, form))
}

// adminGet gets an admin route and returns the status and JSON answer.
func (b *browser) adminGet(s *site, path string) (int, map[string]any) {
	b.t.Helper()
	return decode(b.t, b.Get(s.url+"/auth/admin/"+path))
}

func decode(t testing.TB, resp *http.Response) (int, map[string]any) {
	t.Helper()
	defer resp.Body.Close()
	var v map[string]any
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s %s: %d %q is not a JSON object", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, body)
	}
	return resp.StatusCode, v
}

// userID returns the id of the stored user with the address.
func (s *site) userID(addr string) string {
	s.t.Helper()
	u, err := s.db.GetUserByEmail(context.Background(), addr)
	if err != nil {
		s.t.Fatalf("user %s: %v", addr, err)
	}
	return u.ID
}

// signedInAdmin signs a new browser in at s as admin@example.com through
// OpenID Connect and makes that user an administrator (stored role).
func signedInAdmin(t *testing.T, s *site) *browser {
	t.Helper()
	b := signedInAs(t, s, "admin")
	if err := s.store.SetUserRole(context.Background(), s.userID("admin@example.com"), admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	return b
}

// builtinStores open a new, migrated store of each built-in kind;
// PostgreSQL's is a schema of the test's own.
var builtinStores = []struct {
	name string
	open func(tb testing.TB) adapter.Adapter
}{
	{"memory", func(testing.TB) adapter.Adapter { return memory.New() }},
	{"sqlite", func(tb testing.TB) adapter.Adapter { return dbtest.SQLite(tb, "") }},
	{"postgres", func(tb testing.TB) adapter.Adapter {
		schema, _ := dbtest.PostgresSchema(tb, "gatehouse_admin")
		return dbtest.Postgres(tb, schema)
	}},
}

// adminSite serves a site on a new memory store with an administrator
// signed in (see signedInAdmin), and returns it with their browser.
func adminSite(t *testing.T) (*site, *browser) {
	t.Helper()
	s := newSite(t, newOP(t), memory.New(), nil)
	return s, signedInAdmin(t, s)
}

// signedInAs returns a new browser signed in at s through the OpenID
// provider as its user sub.
func signedInAs(t *testing.T, s *site, sub string) *browser {
	t.Helper()
	b := newBrowser(t)
	b.mustSignIn(s, "oidc", sub)
	return b
}

// passwordUser stores a user with a verified address and the password
// "correct horse battery", for the password-accounts provider.
func passwordUser(t *testing.T, s *site, addr string) string {
	t.Helper()
	now := time.Now()
	u, err := s.db.CreateUser(context.Background(), adapter.User{Email: addr, EmailVerified: &now})
	if err != nil {
		t.Fatal(err)
	}
	hash, err := hasher.Hash(context.Background(), "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.(adapter.PasswordStore).SetPasswordHash(context.Background(), u.ID, hash); err != nil {
		t.Fatal(err)
	}
	return u.ID
}
