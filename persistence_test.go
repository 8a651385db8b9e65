package gatehouse_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// errDown is what spyAdapter answers while the database is "down". Its
// text must never reach a page.
var errDown = errors.New("dial tcp 10.0.0.7:5432: connect: connection refused (password=hunter2)")

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

// linkingApp starts an app on a new store of kind with a second
// provider, "other", whose one user is other; dangerous sets its
// AllowDangerousEmailAccountLinking.
func linkingApp(t *testing.T, kind string, other authtest.User, dangerous bool) (*store, *app, *events) {
	t.Helper()
	st := openStore(t, kind)
	a, ev := newDBApp(t, st, authtest.Options{}, secondProvider(t, "other", []authtest.User{other}, dangerous))
	return st, a, ev
}

// signInAs signs in at provider as the provider user hint (login_hint).
func (b *browser) signInAs(a *app, provider, hint string) (*http.Response, string) {
	b.t.Helper()
	q := url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}}
	u := a.url + "/auth/signin/" + provider
	if hint != "" {
		u += "?" + url.Values{"login_hint": {hint}}.Encode()
	}
	return b.postSignIn(u, q)
}

// cookie returns the browser's cookie name for the app, or "".
func (b *browser) cookie(a *app, name string) string {
	u, _ := url.Parse(a.url)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// userID returns the id of the session's user, or "" without a session.
func (b *browser) userID(a *app) string {
	b.t.Helper()
	s := b.session(a)
	if s == nil {
		return ""
	}
	u, _ := s["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
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

func TestDatabaseSession(t *testing.T) {
	eachStore(t, func(t *testing.T, st *store) {
		const maxAge, updateAge = 10 * time.Hour, time.Hour
		a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
			cfg.Session.MaxAge, cfg.Session.UpdateAge = maxAge, updateAge
		})
		b := newBrowser(t)
		ctx := context.Background()

		resp, body := b.signIn(a, "dev", "/private")
		if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
			t.Fatalf("landed on %s with %q", resp.Request.URL, body)
		}

		// The cookie holds an opaque token; the row holds its hash.
		raw := b.cookie(a, sessionCookie)
		if len(raw) < 32 || strings.Count(raw, ".") > 0 {
			t.Fatalf("session cookie %q is not an opaque token", raw)
		}
		if _, _, err := st.raw.GetSessionAndUser(ctx, raw); !errors.Is(err, adapter.ErrNotFound) {
			t.Fatalf("the cookie's value is stored as it is (err %v)", err)
		}
		sess, user, err := st.raw.GetSessionAndUser(ctx, sha256Hex(raw))
		if err != nil {
			t.Fatalf("no session row for the cookie: %v", err)
		}
		if user.Email != "alice@example.com" || sess.UserID != user.ID || strings.HasPrefix(user.ID, "dev:") {
			t.Fatalf("session row %+v, user %+v", sess, user)
		}
		if d := time.Until(sess.Expires); d < maxAge-time.Minute || d > maxAge {
			t.Fatalf("session expires in %v, want %v", d, maxAge)
		}

		// One query per request, the user joined; no expiry push on
		// a fresh session.
		st.spy.reset()
		if id := b.userID(a); id != user.ID {
			t.Fatalf("session user id %q, want %q", id, user.ID)
		}
		if n := st.spy.count("GetSessionAndUser"); n != 1 {
			t.Fatalf("GET /auth/session made %d GetSessionAndUser calls, want 1", n)
		}
		if n := st.spy.count("GetUser") + st.spy.count("UpdateSession"); n != 0 {
			t.Fatalf("GET /auth/session made %d GetUser/UpdateSession calls, want 0", n)
		}
		r := b.get(a.url + "/private")
		r.Body.Close()
		if n := st.spy.count("GetSessionAndUser"); n != 2 || r.StatusCode != http.StatusOK {
			t.Fatalf("GET /private: status %d, %d GetSessionAndUser calls in all, want 2", r.StatusCode, n)
		}

		// Used after UpdateAge: the expiry is pushed, once.
		old := time.Now().Add(maxAge - updateAge - time.Minute)
		if _, err := st.raw.UpdateSession(ctx, sha256Hex(raw), old); err != nil {
			t.Fatal(err)
		}
		st.spy.reset()
		b.session(a)
		b.session(a)
		if n := st.spy.count("UpdateSession"); n != 1 {
			t.Fatalf("%d UpdateSession calls after UpdateAge, want 1", n)
		}
		sess, _, _ = st.raw.GetSessionAndUser(ctx, sha256Hex(raw))
		if d := time.Until(sess.Expires); d < maxAge-time.Minute {
			t.Fatalf("expiry not pushed: in %v", d)
		}
		if b.cookie(a, sessionCookie) != raw {
			t.Fatal("the session token changed on an expiry push")
		}

		// Sign-out deletes the row.
		out := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}})
		out.Body.Close()
		if _, _, err := st.raw.GetSessionAndUser(ctx, sha256Hex(raw)); !errors.Is(err, adapter.ErrNotFound) {
			t.Fatalf("session row after sign-out: %v", err)
		}
		if s := b.session(a); s != nil {
			t.Fatalf("session after sign-out: %v", s)
		}
		if n := st.rows(t, "gatehouse_sessions"); n > 0 {
			t.Fatalf("%d session rows after sign-out", n)
		}
	})
}

func TestDatabaseSessionExpired(t *testing.T) {
	eachStore(t, func(t *testing.T, st *store) {
		a, _ := newDBApp(t, st, authtest.Options{}, nil)
		b := newBrowser(t)
		b.signIn(a, "dev", "/")
		raw := b.cookie(a, sessionCookie)
		if _, err := st.raw.UpdateSession(context.Background(), sha256Hex(raw), time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if s := b.session(a); s != nil {
			t.Fatalf("expired session read as %v", s)
		}
		if _, _, err := st.raw.GetSessionAndUser(context.Background(), sha256Hex(raw)); !errors.Is(err, adapter.ErrNotFound) {
			t.Fatalf("expired session row kept: %v", err)
		}
		if b.cookie(a, sessionCookie) != "" {
			t.Fatal("expired session cookie kept")
		}
	})
}

// The JWT strategy stays the default without an adapter, and can be
// chosen with one.
func TestStrategyDefaults(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	if raw := b.cookie(a, sessionCookie); strings.Count(raw, ".") != 4 {
		t.Fatalf("without an adapter the session cookie is %q, want a JWE", raw)
	}

	st := openStore(t, "memory")
	a, _ = newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Session.Strategy = gatehouse.StrategyJWT })
	b = newBrowser(t)
	b.signIn(a, "dev", "/")
	if raw := b.cookie(a, sessionCookie); strings.Count(raw, ".") != 4 {
		t.Fatalf("with Strategy jwt the session cookie is %q, want a JWE", raw)
	}
	u, err := st.raw.GetUserByEmail(context.Background(), "alice@example.com")
	if err != nil || b.userID(a) != u.ID {
		t.Fatalf("JWT session with an adapter: user %q, stored %+v (%v)", b.userID(a), u, err)
	}
	if n := st.spy.count("CreateSession") + st.spy.count("GetSessionAndUser"); n != 0 {
		t.Fatalf("the JWT strategy made %d session calls to the adapter", n)
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

func TestLinking(t *testing.T) {
	eachKind(t, func(t *testing.T, kind string) {
		t.Run("email in use", func(t *testing.T) {
			t.Parallel()
			st, a, ev := linkingApp(t, kind, aliceElsewhere, false)
			newBrowser(t).signIn(a, "dev", "/")
			b := newBrowser(t)
			resp, _ := b.signIn(a, "other", "/private")
			wantError(t, resp, "signin", gatehouse.OAuthAccountNotLinked, "email_in_use")
			if b.userID(a) != "" {
				t.Fatal("a session after OAuthAccountNotLinked")
			}
			if _, err := st.raw.GetUserByAccount(context.Background(), "other", "x1"); !errors.Is(err, adapter.ErrNotFound) {
				t.Fatalf("the refused account was stored: %v", err)
			}
			ev.wantCreatedLinked(t, 1, 1)
		})
		t.Run("dangerous linking", func(t *testing.T) {
			t.Parallel()
			st, a, ev := linkingApp(t, kind, aliceElsewhere, true)
			b1 := newBrowser(t)
			b1.signIn(a, "dev", "/")
			b2 := newBrowser(t)
			resp, body := b2.signIn(a, "other", "/private")
			if body != "hello alice@example.com" {
				t.Fatalf("ended on %s with %q", resp.Request.URL, body)
			}
			if b1.userID(a) != b2.userID(a) || b1.userID(a) == "" {
				t.Fatalf("users %q and %q, want the same", b1.userID(a), b2.userID(a))
			}
			accts, _ := st.raw.ListAccounts(context.Background(), b1.userID(a))
			if len(accts) != 2 {
				t.Fatalf("%d accounts, want 2", len(accts))
			}
			ev.wantCreatedLinked(t, 1, 2)
			ev.wantSignedIn(t, 2, 1)
			if n := st.rows(t, "gatehouse_users"); n != 1 {
				t.Fatalf("%d users, want 1", n)
			}
		})
		t.Run("dangerous linking refuses an unverified address", func(t *testing.T) {
			t.Parallel()
			_, a, _ := linkingApp(t, kind, authtest.User{Subject: "x1", Name: "A", Email: "alice@example.com", EmailVerified: false}, true)
			newBrowser(t).signIn(a, "dev", "/")
			resp, _ := newBrowser(t).signIn(a, "other", "/")
			wantError(t, resp, "signin", gatehouse.OAuthAccountNotLinked, "email_unverified")
		})
		t.Run("signed in links", func(t *testing.T) {
			t.Parallel()
			st, a, ev := linkingApp(t, kind, aliceWork, false)
			b := newBrowser(t)
			b.signIn(a, "dev", "/")
			first := b.userID(a)
			resp, body := b.signIn(a, "other", "/private")
			if body != "hello alice@example.com" || b.userID(a) != first {
				t.Fatalf("ended on %s with %q as %q, want user %q", resp.Request.URL, body, b.userID(a), first)
			}
			u, err := st.raw.GetUserByAccount(context.Background(), "other", "a-w")
			if err != nil || u.ID != first {
				t.Fatalf("account other/a-w belongs to %+v (%v), want %q", u, err, first)
			}
			ev.wantCreatedLinked(t, 1, 2)
			// Signing in with the linked account alone finds the user.
			b2 := newBrowser(t)
			b2.signIn(a, "other", "/")
			if b2.userID(a) != first {
				t.Fatalf("the linked account signs in as %q, want %q", b2.userID(a), first)
			}
			ev.wantCreatedLinked(t, 1, 2)
		})
		t.Run("linked to another user", func(t *testing.T) {
			t.Parallel()
			_, a, ev := linkingApp(t, kind, bob, false)
			newBrowser(t).signIn(a, "dev", "/") // alice
			b := newBrowser(t)
			b.signIn(a, "other", "/") // bob, a new user
			bobID := b.userID(a)
			resp, _ := b.signIn(a, "dev", "/private") // alice's account, while signed in as bob
			wantError(t, resp, "signin", gatehouse.OAuthAccountNotLinked, "linked_to_other_user")
			if b.userID(a) != bobID {
				t.Fatalf("after the refusal the session is %q, want bob %q", b.userID(a), bobID)
			}
			ev.wantCreatedLinked(t, 2, 2)
		})
		t.Run("one account per provider", func(t *testing.T) {
			t.Parallel()
			st := openStore(t, kind)
			a, _ := newDBApp(t, st, authtest.Options{Users: []authtest.User{alice, alice2}}, nil)
			b := newBrowser(t)
			b.signInAs(a, "dev", "alice")
			resp, _ := b.signInAs(a, "dev", "alice-2")
			wantError(t, resp, "signin", gatehouse.OAuthAccountNotLinked, "provider_already_linked")
			if _, err := st.raw.GetUserByAccount(context.Background(), "dev", "alice-2"); !errors.Is(err, adapter.ErrNotFound) {
				t.Fatalf("a second dev account was linked: %v", err)
			}
		})
	})
}

// A second sign-in keeps the stored tokens current, and fires no
// CreateUser or LinkAccount.
func TestAccountTokensUpdated(t *testing.T) {
	eachStore(t, func(t *testing.T, st *store) {
		a, ev := newDBApp(t, st, authtest.Options{}, nil)
		ctx := context.Background()
		newBrowser(t).signIn(a, "dev", "/")
		first, err := st.raw.GetAccount(ctx, "dev", "alice")
		if err != nil || first.AccessToken == "" || first.RefreshToken == "" || first.IDToken == "" || first.ExpiresAt == 0 {
			t.Fatalf("stored account %+v (%v)", first, err)
		}
		newBrowser(t).signIn(a, "dev", "/")
		second, _ := st.raw.GetAccount(ctx, "dev", "alice")
		if second.AccessToken == first.AccessToken || second.RefreshToken == first.RefreshToken || second.UserID != first.UserID {
			t.Fatalf("tokens not updated: access %v, refresh %v, user %q then %q", second.AccessToken != first.AccessToken, second.RefreshToken != first.RefreshToken, first.UserID, second.UserID)
		}
		ev.wantCreatedLinked(t, 1, 1)
		ev.wantSignedIn(t, 2, 1)
	})
}

// A sign-in whose token answer has no refresh token keeps the stored one.
func TestAccountRefreshTokenKept(t *testing.T) {
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		p := cfg.Providers[0].(providers.OAuthConfig[profile.Claims])
		calls := 0
		p.Account = func(_ context.Context, t account.TokenSet) (*account.TokenSet, error) {
			calls++
			kept := account.Default(t)
			if calls > 1 {
				kept.RefreshToken = "" // as providers that send it only at first consent
			}
			return &kept, nil
		}
		cfg.Providers[0] = p
	})
	ctx := context.Background()
	newBrowser(t).signIn(a, "dev", "/")
	first, _ := st.raw.GetAccount(ctx, "dev", "alice")
	newBrowser(t).signIn(a, "dev", "/")
	second, _ := st.raw.GetAccount(ctx, "dev", "alice")
	if second.AccessToken == first.AccessToken || second.RefreshToken != first.RefreshToken || first.RefreshToken == "" {
		t.Fatalf("refresh token %q, then %q (access token changed: %v)", first.RefreshToken, second.RefreshToken, second.AccessToken != first.AccessToken)
	}
}

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

// Two first sign-ins of one new person at the same time make one user
// and one account: both requests pass the lookups before either writes
// (a barrier holds them at CreateUserWithAccount).
func TestConcurrentFirstSignIn(t *testing.T) {
	for _, kind := range stores {
		for _, u := range []authtest.User{alice, {Subject: "no-mail", Name: "No Mail"}} {
			t.Run(kind+"/"+u.Subject, func(t *testing.T) {
				t.Parallel()
				st := openStore(t, kind)
				st.spy.holdAt("CreateUserWithAccount", newBarrier(2))
				a, ev := newDBApp(t, st, authtest.Options{Users: []authtest.User{u}}, nil)
				runConcurrentSignInsAs(t, a.url, "dev", "", 2)
				if n := st.spy.count("CreateUserWithAccount"); n != 2 {
					t.Fatalf("%d CreateUserWithAccount calls, want 2 (the race did not happen)", n)
				}
				ev.wantCreatedLinked(t, 1, 1)
				ev.wantSignedIn(t, 2, 1)
				if n := st.rows(t, "gatehouse_users"); n != 1 {
					t.Fatalf("%d users, want 1", n)
				}
				if st.db != nil {
					if n := st.rows(t, "gatehouse_accounts"); n != 1 {
						t.Fatalf("%d accounts, want 1", n)
					}
				}
			})
		}
	}
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

// adapterErrorSignIn signs b in to a with "dev", and fails the test
// unless the sign-in ends on the AdapterError page (with code, unless
// "") showing nothing of the cause.
func adapterErrorSignIn(t *testing.T, a *app, b *browser, code string) (*http.Response, string) {
	t.Helper()
	resp, body := b.signIn(a, "dev", "/private")
	wantError(t, resp, "error", gatehouse.AdapterError, code)
	noLeak(t, body)
	return resp, body
}

// noLeak checks that an error page shows nothing of the cause.
func noLeak(t *testing.T, body string) {
	t.Helper()
	for _, s := range []string{"goroutine", "panic", "hunter2", "10.0.0.7", "injected", "sqlite:", "memory:"} {
		if strings.Contains(body, s) {
			t.Fatalf("error page shows %q:\n%s", s, body)
		}
	}
}

// failingApp starts an app on a new store of kind whose spy fails method
// with err.
func failingApp(t *testing.T, kind, method string, err error) (*store, *app, *events) {
	t.Helper()
	st := openStore(t, kind)
	a, ev := newDBApp(t, st, authtest.Options{}, nil)
	st.spy.setFail(method, err)
	return st, a, ev
}

func TestAdapterFailures(t *testing.T) {
	eachKind(t, func(t *testing.T, kind string) {
		t.Run("create user fails", func(t *testing.T) {
			t.Parallel()
			st, a, ev := failingApp(t, kind, "CreateUserWithAccount", errors.New("injected: disk full"))
			b := newBrowser(t)
			_, body := adapterErrorSignIn(t, a, b, "adapter")
			if !strings.Contains(body, "could not be loaded or saved") {
				t.Fatalf("error page:\n%s", body)
			}
			if b.userID(a) != "" || st.rows(t, "gatehouse_users") != 0 {
				t.Fatal("a session or a user after a failed create")
			}
			if c, l, _, _ := ev.counts(); c+l != 0 {
				t.Fatalf("events fired for a failed create: %d %d", c, l)
			}
			st.spy.setFail("CreateUserWithAccount", nil)
			signedIn(t, a, b) // recovered
			ev.wantCreatedLinked(t, 1, 1)
		})
		t.Run("session write fails after the user is made", func(t *testing.T) {
			t.Parallel()
			st, a, _ := failingApp(t, kind, "CreateSession", errors.New("injected: read-only replica"))
			b := newBrowser(t)
			adapterErrorSignIn(t, a, b, "adapter")
			st.spy.setFail("CreateSession", nil)
			signedIn(t, a, b) // recovered
			if n := st.rows(t, "gatehouse_users"); n != 1 {
				t.Fatalf("%d users, want 1", n)
			}
		})
		t.Run("database gone and back", func(t *testing.T) {
			t.Parallel()
			st := openStore(t, kind)
			a, _ := newDBApp(t, st, authtest.Options{}, nil)
			b := newBrowser(t)
			b.signIn(a, "dev", "/")
			raw := b.cookie(a, sessionCookie)
			st.spy.down.Store(true)

			// Pages still answer; the session is unreadable, not ended:
			// 503 with Retry-After, never "signed out" (200 null) nor a
			// redirect to the sign-in page.
			for _, path := range []string{"/auth/session", "/private"} {
				r := b.get(a.url + path)
				r.Body.Close()
				if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" {
					t.Fatalf("GET %s while the database is down: %d", path, r.StatusCode)
				}
			}
			resp, body := adapterErrorSignIn(t, a, newBrowser(t), "")
			if resp.StatusCode >= 500 && strings.Contains(strings.ToLower(body), "internal server error") {
				t.Fatalf("a bare 500:\n%s", body)
			}
			if b.cookie(a, sessionCookie) != raw {
				t.Fatal("the session cookie was cleared because the database was down")
			}

			st.spy.down.Store(false)
			r := b.get(a.url + "/private")
			body2, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if string(body2) != "hello alice@example.com" {
				t.Fatalf("after the database came back: %d %q", r.StatusCode, body2)
			}
			if _, body := newBrowser(t).signIn(a, "dev", "/private"); body != "hello alice@example.com" {
				t.Fatalf("sign-in after the database came back: %q", body)
			}
		})
	})
}

// A failure inside CreateUserWithAccount, after the user row is written
// and before the account row is, leaves neither (SQLite, a trigger
// failing the account insert).
func TestHalfWayFailureLeavesNoOrphans(t *testing.T) {
	st := openStore(t, "sqlite")
	a, ev := newDBApp(t, st, authtest.Options{}, nil)
	if _, err := st.db.Exec(`CREATE TRIGGER gatehouse_test_fail BEFORE INSERT ON gatehouse_accounts
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	adapterErrorSignIn(t, a, b, "adapter")
	for _, table := range []string{"gatehouse_users", "gatehouse_accounts", "gatehouse_sessions"} {
		if n := st.rows(t, table); n != 0 {
			t.Fatalf("%d rows in %s after a failed sign-in", n, table)
		}
	}
	if c, l, _, _ := ev.counts(); c+l != 0 {
		t.Fatal("events fired for a failed sign-in")
	}
	if _, err := st.db.Exec(`DROP TRIGGER gatehouse_test_fail`); err != nil {
		t.Fatal(err)
	}
	if _, body := b.signIn(a, "dev", "/private"); body != "hello alice@example.com" {
		t.Fatalf("after recovery: %q", body)
	}
	if st.rows(t, "gatehouse_users") != 1 || st.rows(t, "gatehouse_accounts") != 1 || st.rows(t, "gatehouse_sessions") != 1 {
		t.Fatal("want one user, account and session")
	}
}

// benchSession signs in once with cfg and returns the Handler and the
// signed-in browser's cookies.
func benchSession(b *testing.B, mutate func(*gatehouse.Config)) (*gatehouse.Handler, []*http.Cookie) {
	b.Helper()
	op := newOP(b, authtest.Options{AutoApprove: true})
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	cfg := gatehouse.Config{
		Secret:    []string{testSecret},
		URL:       base + "/auth",
		Providers: []providers.Provider{devProvider(op)},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h, err := gatehouse.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.HandleFunc("/", func(http.ResponseWriter, *http.Request) {})
	srv.Config.Handler = h.Middleware(mux)
	srv.Start()
	b.Cleanup(srv.Close)
	final, body, c, err := signInFlow(context.Background(), base, "dev", "")
	if err != nil || !strings.HasSuffix(final, "/private") {
		b.Fatalf("sign-in: %v, ended on %s with %q", err, final, body)
	}
	u, _ := url.Parse(base)
	return h, c.Jar.Cookies(u)
}

// BenchmarkSessionReadDatabase is BenchmarkSessionRead (GET
// {base}/session) with the database strategy: the token hashed, one
// GetSessionAndUser, no expiry push.
func BenchmarkSessionReadDatabase(b *testing.B) {
	for _, kind := range stores {
		for _, cached := range []bool{false, true} {
			name := kind
			if cached {
				name += "/cookiecache"
			}
			b.Run(name, func(b *testing.B) { benchSessionReadDatabase(b, kind, cached) })
		}
	}
}

// benchSessionReadDatabase reads a database session of kind, through the
// cookie cache (SessionConfig.CookieCache) when cached is set.
func benchSessionReadDatabase(b *testing.B, kind string, cached bool) {
	st := openStore(b, kind)
	h, cookies := benchSession(b, func(cfg *gatehouse.Config) {
		cfg.Adapter = st.raw
		cfg.Session.CookieCache.Enabled = cached
	})
	r := httptest.NewRequest(http.MethodGet, "http://app/auth/session", nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "alice@example.com") {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

// TestFiftyFirstSignInsTwoInstances: 50 first sign-ins of one new person
// at once, through two instances of the application (round robin: a
// flow's requests land on either), make one user and one account, and all
// 50 sign in. Before: some ended in OAuthAccountNotLinked (email_in_use),
// the e-mail lookup finding the user a concurrent sign-in had just made.
func TestFiftyFirstSignInsTwoInstances(t *testing.T) {
	kinds := map[string]func(t *testing.T) (adapter.Adapter, func(string) int){
		"sqlite": func(t *testing.T) (adapter.Adapter, func(string) int) {
			st := openStore(t, "sqlite")
			return st.raw, func(table string) int { return st.rows(t, table) }
		},
		"postgres": func(t *testing.T) (adapter.Adapter, func(string) int) {
			requirePostgres(t)
			schema, conn := pgSchema(t)
			a := pgAdapter(t, schema)
			if err := a.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			return a, func(table string) int { return pgCount(t, conn, schema+"."+table) }
		},
	}
	for name, open := range kinds {
		t.Run(name, func(t *testing.T) {
			store, rows := open(t)
			op := newOP(t, authtest.Options{AutoApprove: true})
			ln := listenLocal(t)
			base := "http://" + ln.Addr().String()
			var apps [2]http.Handler
			for i := range apps {
				h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: base + "/auth", Adapter: store,
					Providers: []providers.Provider{devProvider(op)}, HTTPClient: &http.Client{Timeout: 10 * time.Second},
					RateLimit: limit.NewMemory(10000, time.Minute)})
				apps[i] = h.Middleware(siteMux(h))
			}
			var next atomic.Uint64
			serveOn(t, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				apps[next.Add(1)%2].ServeHTTP(w, r)
			}), false)
			runConcurrentSignInsAs(t, base, "dev", "", 50)
			if u, a := rows("gatehouse_users"), rows("gatehouse_accounts"); u != 1 || a != 1 {
				t.Fatalf("%d users and %d accounts, want 1 and 1", u, a)
			}
		})
	}
}

// TestSignInReadsSessionOnce: a sign-in that arrives while the browser
// is signed in reads that session from the store once, for the
// same-user check and the linking rules together (from the store, not
// the Middleware's copy, which the cookie cache may serve). Before, a
// credentials sign-in read it twice.
func TestSignInReadsSessionOnce(t *testing.T) {
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Fields: []credentials.Field{{Name: "username"}, {Name: "password", Type: "password"}},
			Authorize: func(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
				if c["username"] == "ada" && c["password"] == "pw" {
					return &profile.User{ID: "cred-ada", Name: "Ada", Email: "ada@example.org"}, nil
				}
				return nil, nil
			},
		})
	})
	b := newBrowser(t)
	signIn := func(csrf string) {
		t.Helper()
		resp := b.post(a.url+"/auth/callback/credentials", url.Values{"username": {"ada"}, "password": {"pw"}, "csrfToken": {csrf}})
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || strings.Contains(resp.Header.Get("Location"), "error") {
			t.Fatalf("sign-in answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	signIn(b.csrf(a))
	first := b.userID(a)
	// What any request costs: the Middleware wrapping the site reads the
	// session once.
	st.spy.reset()
	csrf := b.csrf(a)
	perRequest := st.spy.count("GetSessionAndUser")
	st.spy.reset()
	signIn(csrf)
	if n := st.spy.count("GetSessionAndUser"); n != perRequest+1 {
		t.Fatalf("the second sign-in read the session %d times, want %d (the Middleware's, then one)", n, perRequest+1)
	}
	if id := b.userID(a); id != first || id == "" {
		t.Fatalf("signed in as %q, then %q", first, id)
	}
}
