package gatehouse_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"
)

const testSecret = "test-secret-test-secret-test-secret-0123"

// app is a site using Gatehouse, served on loopback, with an in-process
// OpenID provider.
type app struct {
	t   *testing.T
	op  *authtest.Server
	srv *httptest.Server
	h   *gatehouse.Handler
	url string
}

func newApp(t *testing.T, opOpts authtest.Options, mutate func(*gatehouse.Config)) *app {
	t.Helper()
	opOpts.AutoApprove = true
	op := newOP(t, opOpts)
	return startApp(t, op, mutate)
}

// startApp serves a site using Gatehouse on loopback, signing in with op.
func startApp(t *testing.T, op *authtest.Server, mutate func(*gatehouse.Config)) *app {
	t.Helper()
	return serveApp(t, op, mutate, false)
}

// serveApp is startApp, over https when tls is set.
func serveApp(t *testing.T, op *authtest.Server, mutate func(*gatehouse.Config), tls bool) *app {
	t.Helper()
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()
	if tls {
		base = "https://" + ln.Addr().String()
	}
	cfg := gatehouse.Config{
		Secret:     []string{testSecret},
		URL:        base + "/auth",
		Providers:  []providers.Provider{devProvider(op)},
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h := newHandler(t, cfg)
	srv := serveOn(t, ln, h.Middleware(siteMux(h)), tls)
	return &app{t: t, op: op, srv: srv, h: h, url: base}
}

// devProvider is op as the provider "dev" of a Config.
func devProvider(op *authtest.Server) providers.Provider {
	return providers.OAuthConfig[profile.Claims]{
		ID: "dev", Name: "Development", Type: providers.TypeOIDC,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
	}
}

// newHandler is gatehouse.New, failing the test on an error.
func newHandler(t testing.TB, cfg gatehouse.Config) *gatehouse.Handler {
	t.Helper()
	h, err := gatehouse.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// siteMux is the test site: the auth routes, a /private page that says
// hello to the signed-in user, and a home page.
func siteMux(h *gatehouse.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/private", h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	return mux
}

// serveOn serves handler on ln (over TLS when tls is set) until the test
// ends.
func serveOn(t testing.TB, ln net.Listener, handler http.Handler, tls bool) *httptest.Server {
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener.Close()
	srv.Listener = ln
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

// browser is a sitetest.Browser with the steps through the site's
// routes (csrf, signIn, session …) as methods.
type browser struct{ *sitetest.Browser }

func newBrowser(t *testing.T) *browser { return &browser{sitetest.NewBrowser(t)} }

func (b *browser) csrf(a *app) string { b.T.Helper(); return b.CSRF(a.url + "/auth") }

// signIn runs the whole flow and returns the final response and its body.
func (b *browser) signIn(a *app, provider, callbackURL string) (*http.Response, string) {
	b.T.Helper()
	return b.SignIn(a.url+"/auth", provider, callbackURL)
}

func (b *browser) session(a *app) map[string]any { b.T.Helper(); return b.Session(a.url + "/auth") }

// eachStore runs test, in parallel, on a new store of each of the kinds
// of stores.
func eachStore(t *testing.T, test func(t *testing.T, st *store)) {
	eachKind(t, func(t *testing.T, kind string) { test(t, openStore(t, kind)) })
}

// eachKind runs test, in parallel, as a subtest for each of the kinds of
// stores, for tests whose own subtests each open a new store.
func eachKind(t *testing.T, test func(t *testing.T, kind string)) {
	for _, kind := range stores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			test(t, kind)
		})
	}
}

// signedInKeepingTokens starts an app that keeps the provider's tokens
// (KeepTokens), its provider "dev" changed by dev, and signs a new browser
// in.
func signedInKeepingTokens(t *testing.T, opts authtest.Options, dev func(c *providers.OAuthConfig[profile.Claims])) (*app, *browser) {
	t.Helper()
	a := newApp(t, opts, func(cfg *gatehouse.Config) {
		withDev(dev)(cfg)
		cfg.Callbacks.JWT = gatehouse.KeepTokens(nil)
	})
	b := newBrowser(t)
	signedIn(t, a, b)
	return a, b
}

// nonceRetriedPAR returns the PAR and token requests of a sign-in whose
// PAR request the provider answered use_dpop_nonce: two PAR requests and
// one token request, or it fails the test.
func nonceRetriedPAR(t *testing.T, a *app) (pars, toks []authtest.RecordedRequest) {
	t.Helper()
	pars, toks = requestsTo(a.op, authtest.EndpointPAR), requestsTo(a.op, authtest.EndpointToken)
	if len(pars) != 2 || len(toks) != 1 {
		t.Fatalf("%d PAR and %d token requests, want 2 and 1", len(pars), len(toks))
	}
	return pars, toks
}

// accessToken returns the access token of ts, as Handler.TokenSource
// returned it with err.
func accessToken(ts oauth2.TokenSource, err error) (string, error) {
	if err != nil {
		return "", err
	}
	tok, err := ts.Token()
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// tossCallback has a new attacker's browser start a sign-in as user of
// provider, plants its check cookie in victim's browser (cookie tossing),
// and returns the callback URL the provider sent the attacker to.
func (s *attackSite) tossCallback(t *testing.T, victim *browser, provider, user string) string {
	t.Helper()
	attacker := s.browser(t)
	cb := attacker.startAs(s.app, provider, user)
	plantChecks(t, s.app, attacker, victim)
	return cb
}

// newOP starts an in-process provider with opts, closed when the test
// ends.
func newOP(tb testing.TB, opts authtest.Options) *authtest.Server {
	op := authtest.NewServer(opts)
	tb.Cleanup(op.Close)
	return op
}

// listenLocal listens on a free loopback port, or fails the test.
func listenLocal(tb testing.TB) net.Listener {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	return ln
}

// userinfoAfterRefresh calls the provider's userinfo endpoint through
// Handler.Client with a MinValidity that makes it refresh the token
// first, or fails the test.
func userinfoAfterRefresh(t *testing.T, a *app, b *browser) {
	t.Helper()
	w := httptest.NewRecorder()
	c, err := a.h.Client(context.Background(), w, b.appRequest(a), "dev", gatehouse.MinValidity(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(a.op.Issuer() + "/userinfo")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("userinfo after a refresh: %v %v", resp, err)
	}
	resp.Body.Close()
}

// wantUnchanged fails the test unless victim is still signed in as
// userID and the account of provider with providerAccountID was not
// stored: an attack was refused and left nothing behind.
func (s *attackSite) wantUnchanged(t *testing.T, victim *browser, userID, provider, providerAccountID string) {
	t.Helper()
	if got := victim.userID(s.app); got != userID {
		t.Fatalf("the victim's session changed: user %q, want %q", got, userID)
	}
	if _, err := s.db.GetUserByAccount(context.Background(), provider, providerAccountID); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("the account %s/%s was stored: %v", provider, providerAccountID, err)
	}
}

// signInWithFaults starts an app whose provider, started with opts, has
// faults, and runs a new browser's sign-in with "dev" to /private.
func signInWithFaults(t *testing.T, opts authtest.Options, faults authtest.Faults) (a *app, b *browser, resp *http.Response, body string) {
	t.Helper()
	a = newApp(t, opts, nil)
	a.op.SetFaults(faults)
	b = newBrowser(t)
	resp, body = b.signIn(a, "dev", "/private")
	return a, b, resp, body
}

// askDPoPNonce answers a resource request 401 use_dpop_nonce, asking for
// a DPoP proof with nonce (RFC 9449 §9).
func askDPoPNonce(w http.ResponseWriter, nonce string) {
	w.Header().Set("DPoP-Nonce", nonce)
	w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
	w.WriteHeader(http.StatusUnauthorized)
}

// spyAdapter wraps an adapter: it counts calls, can fail chosen methods or
// all of them (the database gone), and can hold calls at a barrier.
type spyAdapter struct {
	adapter.Adapter

	down atomic.Bool

	mu      sync.Mutex
	calls   map[string]int
	fail    map[string]error    // method → error, until cleared
	hold    map[string]*barrier // method → barrier every call waits at
	created map[string]bool     // ids of users created through the spy
}

func newSpy(a adapter.Adapter) *spyAdapter {
	return &spyAdapter{Adapter: a, calls: map[string]int{}, fail: map[string]error{}, hold: map[string]*barrier{}, created: map[string]bool{}}
}

func (s *spyAdapter) enter(method string) error {
	s.mu.Lock()
	s.calls[method]++
	err := s.fail[method]
	bar := s.hold[method]
	s.mu.Unlock()
	if bar != nil {
		bar.wait()
	}
	if s.down.Load() {
		return errDown
	}
	return err
}

func (s *spyAdapter) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

func (s *spyAdapter) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = map[string]int{}
}

func (s *spyAdapter) setFail(method string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	setOrDelete(s.fail, method, err)
}

// holdAt makes every call of method wait at bar (nil: no more).
func (s *spyAdapter) holdAt(method string, bar *barrier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	setOrDelete(s.hold, method, bar)
}

// setOrDelete sets m[key] to v, or deletes key if v is the zero value.
func setOrDelete[V comparable](m map[string]V, key string, v V) {
	var zero V
	if v == zero {
		delete(m, key)
	} else {
		m[key] = v
	}
}

func (s *spyAdapter) usersCreated() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.created)
}

// barrier lets n callers through together, or each one after a timeout.
type barrier struct {
	n       int
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, open: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	b.arrived++
	if b.arrived == b.n {
		close(b.open)
	}
	b.mu.Unlock()
	select {
	case <-b.open:
	case <-time.After(3 * time.Second):
	}
}

// spied is a call of method through the spy: counted, held at its
// barrier, and answered with the spy's error for it, if any; otherwise
// call asks the wrapped adapter.
func spied[T any](s *spyAdapter, method string, call func() (T, error)) (T, error) {
	if err := s.enter(method); err != nil {
		var zero T
		return zero, err
	}
	return call()
}

// spiedErr is spied for the methods that answer only an error.
func spiedErr(s *spyAdapter, method string, call func() error) error {
	if err := s.enter(method); err != nil {
		return err
	}
	return call()
}

// noteCreated records the id of a user the wrapped adapter created, and
// passes its answer on.
func (s *spyAdapter) noteCreated(u adapter.User, err error) (adapter.User, error) {
	if err == nil {
		s.mu.Lock()
		s.created[u.ID] = true
		s.mu.Unlock()
	}
	return u, err
}

func (s *spyAdapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	return spied(s, "CreateUser", func() (adapter.User, error) { return s.noteCreated(s.Adapter.CreateUser(ctx, u)) })
}

func (s *spyAdapter) CreateUserWithAccount(ctx context.Context, u adapter.User, a account.Account) (adapter.User, error) {
	return spied(s, "CreateUserWithAccount", func() (adapter.User, error) {
		return s.noteCreated(s.Adapter.CreateUserWithAccount(ctx, u, a))
	})
}

func (s *spyAdapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	return spied(s, "GetUser", func() (adapter.User, error) { return s.Adapter.GetUser(ctx, id) })
}

func (s *spyAdapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	return spied(s, "GetUserByEmail", func() (adapter.User, error) { return s.Adapter.GetUserByEmail(ctx, email) })
}

func (s *spyAdapter) GetUserByAccount(ctx context.Context, provider, id string) (adapter.User, error) {
	return spied(s, "GetUserByAccount", func() (adapter.User, error) { return s.Adapter.GetUserByAccount(ctx, provider, id) })
}

func (s *spyAdapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	return spied(s, "UpdateUser", func() (adapter.User, error) { return s.Adapter.UpdateUser(ctx, u) })
}

func (s *spyAdapter) DeleteUser(ctx context.Context, id string) error {
	return spiedErr(s, "DeleteUser", func() error { return s.Adapter.DeleteUser(ctx, id) })
}

func (s *spyAdapter) LinkAccount(ctx context.Context, a account.Account) error {
	return spiedErr(s, "LinkAccount", func() error { return s.Adapter.LinkAccount(ctx, a) })
}

func (s *spyAdapter) UnlinkAccount(ctx context.Context, provider, id string) error {
	return spiedErr(s, "UnlinkAccount", func() error { return s.Adapter.UnlinkAccount(ctx, provider, id) })
}

func (s *spyAdapter) GetAccount(ctx context.Context, provider, id string) (account.Account, error) {
	return spied(s, "GetAccount", func() (account.Account, error) { return s.Adapter.GetAccount(ctx, provider, id) })
}

func (s *spyAdapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	return spied(s, "ListAccounts", func() ([]account.Account, error) { return s.Adapter.ListAccounts(ctx, userID) })
}

func (s *spyAdapter) UpdateAccount(ctx context.Context, a account.Account) error {
	return spiedErr(s, "UpdateAccount", func() error { return s.Adapter.UpdateAccount(ctx, a) })
}

func (s *spyAdapter) CreateSession(ctx context.Context, sess adapter.Session) (adapter.Session, error) {
	return spied(s, "CreateSession", func() (adapter.Session, error) { return s.Adapter.CreateSession(ctx, sess) })
}

func (s *spyAdapter) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	if err := s.enter("GetSessionAndUser"); err != nil {
		return adapter.Session{}, adapter.User{}, err
	}
	return s.Adapter.GetSessionAndUser(ctx, token)
}

func (s *spyAdapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	return spied(s, "UpdateSession", func() (adapter.Session, error) { return s.Adapter.UpdateSession(ctx, token, expires) })
}

func (s *spyAdapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	return spied(s, "DeleteSession", func() (adapter.Session, error) { return s.Adapter.DeleteSession(ctx, token) })
}

func (s *spyAdapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	return spiedErr(s, "CreateVerificationToken", func() error { return s.Adapter.CreateVerificationToken(ctx, t) })
}

func (s *spyAdapter) UseVerificationToken(ctx context.Context, identifier, hash string) (adapter.VerificationToken, error) {
	return spied(s, "UseVerificationToken", func() (adapter.VerificationToken, error) {
		return s.Adapter.UseVerificationToken(ctx, identifier, hash)
	})
}

// ListSessions lists through the wrapped adapter (adapter.SessionLister).
func (s *spyAdapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	return spied(s, "ListSessions", func() ([]adapter.Session, error) {
		return s.Adapter.(adapter.SessionLister).ListSessions(ctx, userID)
	})
}

// store is a database under test: the adapter, and for SQLite a direct
// connection to count rows.
type store struct {
	name string
	raw  adapter.Adapter
	spy  *spyAdapter
	db   *sql.DB // nil for memory
}

// stores are the adapters the persistence tests run against.
var stores = []string{"memory", "sqlite"}

func openStore(t testing.TB, kind string) *store {
	t.Helper()
	switch kind {
	case "memory":
		m := memory.New()
		return &store{name: kind, raw: m, spy: newSpy(m)}
	case "sqlite":
		db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(t.TempDir(), "gatehouse.db")))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		a := sqlite.New(db)
		if err := a.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		return &store{name: kind, raw: a, spy: newSpy(a), db: db}
	}
	t.Fatalf("unknown store %q", kind)
	return nil
}

// rows counts the rows of a table (SQLite), or for memory the users the
// spy saw created (other tables: -1, unknown).
func (s *store) rows(t testing.TB, table string) int {
	t.Helper()
	if s.db == nil {
		if table == "gatehouse_users" {
			return s.spy.usersCreated()
		}
		return -1
	}
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// events counts the events a Handler fires.
type events struct {
	mu                                     sync.Mutex
	createUser, linkAccount, signIn, newIn int
	linked                                 []string // provider/providerAccountId → userId
}

func (e *events) install(cfg *gatehouse.Config) {
	cfg.Events.CreateUser = func(context.Context, profile.User) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.createUser++
	}
	cfg.Events.LinkAccount = func(_ context.Context, u profile.User, a account.Account) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.linkAccount++
		e.linked = append(e.linked, a.Provider+"/"+a.ProviderAccountID+"→"+u.ID)
	}
	cfg.Events.SignIn = func(_ context.Context, _ profile.User, _ *account.Account, isNew bool) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.signIn++
		if isNew {
			e.newIn++
		}
	}
}

func (e *events) counts() (createUser, linkAccount, signIn, newIn int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.createUser, e.linkAccount, e.signIn, e.newIn
}

// wantCreatedLinked fails the test unless the CreateUser and LinkAccount
// events fired createUser and linkAccount times.
func (e *events) wantCreatedLinked(t *testing.T, createUser, linkAccount int) {
	t.Helper()
	if c, l, _, _ := e.counts(); c != createUser || l != linkAccount {
		t.Fatalf("CreateUser %d, LinkAccount %d times, want %d, %d", c, l, createUser, linkAccount)
	}
}

// wantSignedIn fails the test unless the SignIn event fired signIn
// times, newIn of them for a new user.
func (e *events) wantSignedIn(t *testing.T, signIn, newIn int) {
	t.Helper()
	if _, _, s, n := e.counts(); s != signIn || n != newIn {
		t.Fatalf("SignIn %d (new %d), want %d (%d)", s, n, signIn, newIn)
	}
}

// newDBApp is newApp with st's spy as the adapter (database strategy by
// default) and the events counted.
func newDBApp(t *testing.T, st *store, opOpts authtest.Options, mutate func(*gatehouse.Config)) (*app, *events) {
	t.Helper()
	ev := &events{}
	a := newApp(t, opOpts, func(cfg *gatehouse.Config) {
		cfg.Adapter = st.spy
		cfg.SelfService = selfservice.Routes{} // the accounts and sessions routes
		ev.install(cfg)
		if mutate != nil {
			mutate(cfg)
		}
	})
	return a, ev
}

// secondProvider starts another OpenID provider and returns a mutate
// function adding it to a Config as provider id.
func secondProvider(t *testing.T, id string, users []authtest.User, dangerous bool) func(*gatehouse.Config) {
	t.Helper()
	op := newOP(t, authtest.Options{AutoApprove: true, Users: users})
	return func(cfg *gatehouse.Config) {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: id, Name: strings.ToUpper(id[:1]) + id[1:], Type: providers.TypeOIDC,
			Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			AllowDangerousEmailAccountLinking: dangerous,
		})
	}
}

// signInAs signs in at provider as the provider user hint (login_hint).
func (b *browser) signInAs(a *app, provider, hint string) (*http.Response, string) {
	b.T.Helper()
	q := url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}}
	u := a.url + "/auth/signin/" + provider
	if hint != "" {
		u += "?" + url.Values{"login_hint": {hint}}.Encode()
	}
	return b.PostSignIn(u, q)
}

// cookie returns the browser's cookie name for the app, or "".
func (b *browser) cookie(a *app, name string) string {
	u, _ := url.Parse(a.url)
	for _, c := range b.Client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// userID returns the id of the session's user, or "" without a session.
func (b *browser) userID(a *app) string {
	b.T.Helper()
	s := b.session(a)
	if s == nil {
		return ""
	}
	u, _ := s["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

const sessionCookie = "authjs.session-token"

// wantError checks that a sign-in ended on route (signin or error) with
// ?error=typ&code=code.
func wantError(t *testing.T, resp *http.Response, route string, typ gatehouse.ErrorType, code string) {
	t.Helper()
	u := resp.Request.URL
	if u.Path != "/auth/"+route || u.Query().Get("error") != string(typ) || (code != "" && u.Query().Get("code") != code) {
		t.Fatalf("ended on %s (status %d), want /auth/%s?error=%s&code=%s", u, resp.StatusCode, route, typ, code)
	}
}

var (
	alice     = authtest.User{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true}
	alice2    = authtest.User{Subject: "alice-2", Name: "Alice Two", Email: "alice.two@example.com", EmailVerified: true}
	bob       = authtest.User{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true}
	aliceWork = authtest.User{Subject: "a-w", Name: "Alice", Email: "alice@work.example", EmailVerified: true}
	// aliceElsewhere is alice's address at another provider.
	aliceElsewhere = authtest.User{Subject: "x1", Name: "A", Email: "alice@example.com", EmailVerified: true}
)

// signInFlow runs a whole sign-in as the provider user hint (login_hint,
// "" for the first) with a client that follows redirects, for use from
// several goroutines. It returns the final URL and body, and the client.
func signInFlow(ctx context.Context, appURL, provider, hint string) (string, string, *http.Client, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, appURL+"/auth/csrf", nil)
	resp, err := c.Do(req)
	if err != nil {
		return "", "", nil, err
	}
	var v struct{ CSRFToken string }
	err = json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if err != nil {
		return "", "", nil, err
	}
	form := url.Values{"csrfToken": {v.CSRFToken}, "callbackUrl": {"/private"}}
	u := appURL + "/auth/signin/" + provider
	if hint != "" {
		u += "?" + url.Values{"login_hint": {hint}}.Encode()
	}
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = c.Do(req)
	if err != nil {
		return "", "", nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.Request.URL.String(), string(body), c, err
}

func sessionUserID(c *http.Client, appURL string) (string, error) {
	resp, err := c.Get(appURL + "/auth/session")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var s struct {
		User struct{ ID string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return "", err
	}
	return s.User.ID, nil
}

// runConcurrentSignInsAs signs n browsers in at once as the provider user
// hint, and checks that they all end on /private as one user.
func runConcurrentSignInsAs(t *testing.T, appURL, provider, hint string, n int) {
	t.Helper()
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			final, body, c, err := signInFlow(t.Context(), appURL, provider, hint)
			if err == nil && !strings.HasSuffix(final, "/private") {
				err = fmt.Errorf("ended on %s with %q", final, body)
			}
			if err == nil {
				ids[i], err = sessionUserID(c, appURL)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("sign-in %d: %v", i, err)
		}
		if ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("sign-ins ended as users %q", ids)
		}
	}
}

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

func (o *outage) GetUserByEmail(ctx context.Context, addr string) (adapter.User, error) {
	if err := o.fail(ctx); err != nil {
		return adapter.User{}, err
	}
	return o.Adapter.GetUserByEmail(ctx, addr)
}

func pgCount(t *testing.T, conn *pgx.Conn, table string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
