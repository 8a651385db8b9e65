package gatehouse_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/twofactor"
	"github.com/redis/go-redis/v9"
)

// errDown is what spyAdapter answers while the database is "down". Its
// text must never reach a page.
var errDown = errors.New("dial tcp 10.0.0.7:5432: connect: connection refused (password=hunter2)")

// linkingApp starts an app on a new store of kind with a second
// provider, "other", whose one user is other; dangerous sets its
// AllowDangerousEmailAccountLinking.
func linkingApp(t *testing.T, kind string, other authtest.User, dangerous bool) (*store, *app, *events) {
	t.Helper()
	st := openStore(t, kind)
	a, ev := newDBApp(t, st, authtest.Options{}, secondProvider(t, "other", []authtest.User{other}, dangerous))
	return st, a, ev
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

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
				r := b.Get(a.url + path)
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
			r := b.Get(a.url + "/private")
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
			schema, conn := dbtest.PostgresSchema(t, "gatehouse_scaleout")
			return dbtest.Postgres(t, schema), func(table string) int { return pgCount(t, conn, schema+"."+table) }
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
		resp := b.Post(a.url+"/auth/callback/credentials", url.Values{"username": {"ada"}, "password": {"pw"}, "csrfToken": {csrf}})
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

// linkedApp is an app with two OpenID providers, dev and corp, and an
// adapter; unlinked records Events.UnlinkAccount.
func linkedApp(t *testing.T) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	return linkedAppWith(t, nil)
}

// linkedAppWith is linkedApp with more configuration.
func linkedAppWith(t *testing.T, more func(*gatehouse.Config)) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	corp := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(corp.Close)
	st = openStore(t, "memory")
	var mu sync.Mutex
	unlinked = &[]string{}
	a, _ = newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp", Type: providers.TypeOIDC, Issuer: corp.Issuer(),
			ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		})
		cfg.Events.UnlinkAccount = func(_ context.Context, u profile.User, acct account.Account) {
			mu.Lock()
			defer mu.Unlock()
			*unlinked = append(*unlinked, u.Email+" "+acct.Provider)
		}
		if more != nil {
			more(cfg)
		}
	})
	return a, st, unlinked
}

func (b *browser) accounts(a *app) (int, []map[string]any) { return b.getList(a, "/auth/accounts") }

// getList GETs path at the app and decodes a JSON list of objects.
func (b *browser) getList(a *app, path string) (int, []map[string]any) {
	b.T.Helper()
	resp := b.Get(a.url + path)
	defer resp.Body.Close()
	var out []map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (b *browser) unlink(a *app, provider string) (int, string) {
	b.T.Helper()
	resp := b.Post(a.url+"/auth/accounts/unlink/"+provider, url.Values{"csrfToken": {b.csrf(a)}})
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestAccountLinks: GET {base}/accounts lists the signed-in user's linked
// providers; POST {base}/accounts/unlink/{provider} removes one, but never
// the last way to sign in; the event is told.
func TestAccountLinks(t *testing.T) {
	a, st, unlinked := linkedApp(t)
	b := newBrowser(t)
	if code, _ := b.accounts(a); code != http.StatusUnauthorized {
		t.Fatalf("accounts without a session: %d", code)
	}
	signedIn(t, a, b)
	if code, list := b.accounts(a); code != http.StatusOK || len(list) != 1 || list[0]["provider"] != "dev" || list[0]["name"] != "Development" {
		t.Fatalf("accounts: %d %v", code, list)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusConflict || !json.Valid([]byte(body)) {
		t.Fatalf("unlinking the last account: %d %s", code, body)
	}
	// Link corp: a sign-in with it while signed in, started by this session.
	b.signIn(a, "corp", "/")
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("after linking corp: %v", list)
	}
	if code, body := b.unlink(a, "nobody"); code != http.StatusNotFound {
		t.Fatalf("unlinking an unknown provider: %d %s", code, body)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusOK {
		t.Fatalf("unlinking dev: %d %s", code, body)
	}
	if _, list := b.accounts(a); len(list) != 1 || list[0]["provider"] != "corp" {
		t.Fatalf("after unlinking dev: %v", list)
	}
	if len(*unlinked) != 1 || (*unlinked)[0] != "alice@example.com dev" {
		t.Fatalf("UnlinkAccount events: %q", *unlinked)
	}
	if _, err := st.raw.GetAccount(context.Background(), "dev", "alice"); err == nil {
		t.Fatal("the dev account is still stored")
	}
	// The token is not in the listing.
	resp := b.Get(a.url + "/auth/accounts")
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{"access_token", "refresh_token", "accessToken", "id_token"} {
		if strings.Contains(strings.ToLower(string(raw)), strings.ToLower(secret)) {
			t.Fatalf("the listing shows %s: %s", secret, raw)
		}
	}
}

// TestUnlinkRefusesCrossSite: a form on another site cannot unlink.
func TestUnlinkRefusesCrossSite(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	resp := b.crossSitePost(a.url+"/auth/accounts/unlink/dev", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site unlink: %d", resp.StatusCode)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("accounts after the refused unlink: %v", list)
	}
}

// TestConcurrentUnlinks: of two unlinks at once of the user's last two
// accounts, one wins; the user keeps a way to sign in.
func TestConcurrentUnlinks(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	csrf := b.csrf(a)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i, prov := range []string{"dev", "corp"} {
		wg.Go(func() {
			resp := b.Post(a.url+"/auth/accounts/unlink/"+prov, url.Values{"csrfToken": {csrf}})
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	if _, list := b.accounts(a); len(list) != 1 {
		t.Fatalf("codes %v, accounts left %v", codes, list)
	}
}

// page GETs u as a browser navigation (Accept: text/html) and returns
// the answer with its body.
func (b *browser) page(u string) (*http.Response, string) {
	b.T.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	resp := b.Do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// submit POSTs form to u as a browser's form does (Accept: text/html).
func (b *browser) submit(u string, form url.Values) (*http.Response, string) {
	b.T.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html,*/*;q=0.8")
	resp := b.Do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// pageForm finds the form on page whose action ends with suffix and
// returns its absolute action and its hidden fields.
func pageForm(t *testing.T, a *app, page, suffix string) (string, url.Values) {
	t.Helper()
	for _, m := range regexp.MustCompile(`(?s)<form action="([^"]*)" method="post">(.*?)</form>`).FindAllStringSubmatch(page, -1) {
		action := html.UnescapeString(m[1])
		if !strings.HasSuffix(action, suffix) {
			continue
		}
		form := url.Values{}
		for _, f := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`).FindAllStringSubmatch(m[2], -1) {
			form.Set(f[1], html.UnescapeString(f[2]))
		}
		if !strings.HasPrefix(action, "http") {
			action = a.url + action
		}
		return action, form
	}
	t.Fatalf("no form posting to …%s on the page:\n%s", suffix, page)
	return "", nil
}

// TestAccountsPage: a browser opening GET {base}/accounts gets the built-in
// page (signed out: sent to sign in and back); it links another provider
// from the page's own form (a sign-in started by this session), unlinks
// one with a form (303 back to the page, which says so), and is shown
// the page with the refusal (409) for the last way to sign in. The JSON
// answer says canUnlink. LinkAccount and UnlinkAccount are told.
func TestAccountsPage(t *testing.T) {
	var mu sync.Mutex
	var linked []string
	a, _, unlinked := linkedAppWith(t, func(cfg *gatehouse.Config) {
		cfg.Events.LinkAccount = func(_ context.Context, u profile.User, acct account.Account) {
			mu.Lock()
			defer mu.Unlock()
			linked = append(linked, u.Email+" "+acct.Provider)
		}
	})
	b := newBrowser(t)
	resp, _ := b.page(a.url + "/auth/accounts")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/auth/signin?callbackUrl="+url.QueryEscape(a.url+"/auth/accounts") && loc != a.url+"/auth/signin?callbackUrl="+url.QueryEscape(a.url+"/auth/accounts") {
		t.Fatalf("the page without a session: %d to %q", resp.StatusCode, loc)
	}

	signedIn(t, a, b)
	resp, page := b.page(a.url + "/auth/accounts")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{"<h1>Linked accounts</h1>", "<strong>Development</strong>", "cannot be unlinked", "<span>Link Corp</span>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "/accounts/unlink/") || strings.Contains(page, "Link Development") {
		t.Errorf("the page offers to unlink the last way, or to link a linked provider:\n%s", page)
	}
	if _, list := b.accounts(a); len(list) != 1 || list[0]["canUnlink"] != false {
		t.Fatalf("JSON with one account: %v", list)
	}

	// Link Corp with the page's own form: a sign-in started by this
	// session, back to the page, which says so.
	action, form := pageForm(t, a, page, "/signin/corp")
	if form.Get("csrfToken") == "" || form.Get("callbackUrl") != a.url+"/auth/accounts?linked=corp" {
		t.Fatalf("the link form sends %v", form)
	}
	resp = b.Follow(b.Post(action, form))
	resp.Body.Close()
	if resp.Request.URL.String() != a.url+"/auth/accounts?linked=corp" {
		t.Fatalf("linking landed on %s (hops %v)", resp.Request.URL, b.Hops)
	}
	_, page = b.page(a.url + "/auth/accounts?linked=corp")
	if !strings.Contains(page, `role="status">Linked Corp.</p>`) || strings.Count(page, ">Unlink</button>") != 2 || strings.Contains(page, "Link another account") {
		t.Fatalf("the page after linking:\n%s", page)
	}
	if _, list := b.accounts(a); len(list) != 2 || list[0]["canUnlink"] != true || list[1]["canUnlink"] != true {
		t.Fatalf("JSON with two accounts: %v", list)
	}

	// Unlink Development with its form: first the question, naming what
	// remains; nothing is unlinked yet.
	action, form = pageForm(t, a, page, "/accounts/unlink/dev")
	resp, page = b.submit(action, form)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Unlink Development?</h2>") ||
		!strings.Contains(page, "You can still sign in with: Corp.") || !strings.Contains(page, `name="confirm" value="yes"`) {
		t.Fatalf("unlink from the page asks first: %d\n%s", resp.StatusCode, page)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("the question unlinked: %v", list)
	}
	// The confirmation's form: 303 back to the page.
	action, form = pageForm(t, a, page, "/accounts/unlink/dev")
	if form.Get("confirm") != "yes" {
		t.Fatalf("the first unlink form on the question is not the confirmation: %v", form)
	}
	resp, _ = b.submit(action, form)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "/auth/accounts?unlinked=dev") {
		t.Fatalf("unlink from the page: %d to %q", resp.StatusCode, loc)
	}
	_, page = b.page(a.url + "/auth/accounts?unlinked=dev")
	if !strings.Contains(page, `role="status">Unlinked Development.</p>`) || !strings.Contains(page, "<strong>Corp</strong>") ||
		strings.Contains(page, "<strong>Development</strong>") || strings.Contains(page, ">Unlink</button>") || !strings.Contains(page, "<span>Link Development</span>") {
		t.Fatalf("the page after unlinking:\n%s", page)
	}

	// The last way: refused, the page shown with the alert.
	resp, page = b.submit(a.url+"/auth/accounts/unlink/corp", url.Values{"csrfToken": {b.csrf(a)}})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(page, `role="alert">Corp was not unlinked: it is your only way to sign in.`) {
		t.Fatalf("unlinking the last way from the page: %d\n%s", resp.StatusCode, page)
	}
	resp, page = b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {b.csrf(a)}})
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(page, `role="alert">That account is not linked`) {
		t.Fatalf("unlinking what is not linked from the page: %d\n%s", resp.StatusCode, page)
	}

	// The notice says only what the list confirms.
	for _, q := range []string{"?linked=dev", "?unlinked=corp", "?linked=%3Cb%3Ex", "?unlinked=nobody"} {
		if _, page := b.page(a.url + "/auth/accounts" + q); strings.Contains(page, `role="status"`) {
			t.Errorf("%s shows a notice", q)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// As Auth.js: the first sign-in links its account too.
	if len(linked) != 2 || linked[0] != "alice@example.com dev" || linked[1] != "alice@example.com corp" {
		t.Errorf("LinkAccount events: %q", linked)
	}
	if len(*unlinked) != 1 || (*unlinked)[0] != "alice@example.com dev" {
		t.Errorf("UnlinkAccount events: %q", *unlinked)
	}
}

// TestAccountsPageFormChecks: the page's forms get the same checks as the
// JSON routes: without the CSRF token, or from another site, nothing is
// unlinked; signed out, a form is sent to sign in.
func TestAccountsPageFormChecks(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	if resp, _ := b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {b.csrf(a)}}); resp.StatusCode != http.StatusSeeOther ||
		!strings.Contains(resp.Header.Get("Location"), "/auth/signin?callbackUrl=") {
		t.Fatalf("a signed-out form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	// Without the token (or a stale one): the page again, a fresh token in its forms.
	resp, page := b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {"stale"}})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, `role="alert">Nothing was unlinked: the form had expired.`) {
		t.Fatalf("a form with a stale token: %d\n%s", resp.StatusCode, page)
	}
	if _, form := pageForm(t, a, page, "/accounts/unlink/dev"); form.Get("csrfToken") != b.csrf(a) {
		t.Fatalf("the page after a stale form carries the token %q", form.Get("csrfToken"))
	}
	// From another site: sent to the sign-in page's banner, as a cross-site
	// sign-out is; nothing of the accounts.
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/accounts/unlink/dev", strings.NewReader(url.Values{"csrfToken": {b.csrf(a)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp = b.Do(req)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "code=cross_site") {
		t.Fatalf("a cross-site form: %d to %q", resp.StatusCode, loc)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("accounts after the refused forms: %v", list)
	}
}

// twoFactorApp is an app with two-factor sign-in on, over the memory
// adapter (a twofactor.Store), recording Events.TwoFactor.
func twoFactorApp(t *testing.T, mutate func(*gatehouse.Config)) (*app, func() []gatehouse.TwoFactorChange) {
	t.Helper()
	st := openStore(t, "memory")
	var mu sync.Mutex
	var changes []gatehouse.TwoFactorChange
	a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = st.raw
		cfg.TwoFactor = twofactor.SignIn{Issuer: "Example"}
		cfg.Events.TwoFactor = func(_ context.Context, u profile.User, c gatehouse.TwoFactorChange) {
			mu.Lock()
			defer mu.Unlock()
			changes = append(changes, c)
		}
		if mutate != nil {
			mutate(cfg)
		}
	})
	return a, func() []gatehouse.TwoFactorChange {
		mu.Lock()
		defer mu.Unlock()
		return append([]gatehouse.TwoFactorChange(nil), changes...)
	}
}

// twoFactor POSTs form to {base}/two-factor/{action} ("" for the sign-in
// step) with the CSRF token, as JSON, and returns the status and the
// decoded answer.
func (b *browser) twoFactor(a *app, action string, form url.Values) (int, map[string]any) {
	b.T.Helper()
	form.Set("csrfToken", b.csrf(a))
	u := a.url + "/auth/two-factor"
	if action != "" {
		u += "/" + action
	}
	resp := b.Post(u, form)
	defer resp.Body.Close()
	var out map[string]any
	body, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(body, &out)
	if out == nil {
		out = map[string]any{"location": resp.Header.Get("Location"), "body": string(body)}
	}
	return resp.StatusCode, out
}

// enrol turns two-factor sign-in on for b's user and returns the TOTP
// secret and the backup codes.
func enrol(t *testing.T, a *app, b *browser) (string, []string) {
	t.Helper()
	code, e := b.twoFactor(a, "enroll", url.Values{})
	secret, _ := e["secret"].(string)
	if code != http.StatusOK || secret == "" || !strings.HasPrefix(e["otpauthUri"].(string), "otpauth://totp/") ||
		!strings.HasPrefix(e["qrCode"].(string), "data:image/png;base64,") {
		t.Fatalf("enroll: %d %v", code, e)
	}
	code, c := b.twoFactor(a, "confirm", url.Values{"code": {totp(t, secret, 0)}})
	list, _ := c["backupCodes"].([]any)
	if code != http.StatusOK || len(list) != twofactor.BackupCodeCount || c["enabled"] != true {
		t.Fatalf("confirm: %d %v", code, c)
	}
	codes := make([]string, len(list))
	for i, v := range list {
		codes[i] = v.(string)
	}
	return secret, codes
}

// totp returns the code for secret steps periods from now.
func totp(t *testing.T, secret string, steps int) string {
	t.Helper()
	c, err := twofactor.TOTP{}.Code(secret, time.Now().Add(time.Duration(steps)*30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// firstFactor signs b in with the dev provider and returns where it
// landed; for a user with two-factor sign-in on, the code form.
func firstFactor(t *testing.T, a *app, b *browser) (*http.Response, string) {
	t.Helper()
	return b.signIn(a, "dev", "/private")
}

// TestTwoFactorSignIn: a user turns two-factor sign-in on; the next
// sign-in stops at the code form with no session, a wrong code is
// refused, a backup code or a fresh TOTP code finishes the sign-in where
// it was going, and neither works twice.
func TestTwoFactorSignIn(t *testing.T) {
	a, changes := twoFactorApp(t, nil)
	laptop := newBrowser(t)
	signedIn(t, a, laptop) // not enrolled: one factor is enough
	if code, st := laptop.getJSON(a, "/auth/two-factor/setup"); code != http.StatusOK || st["enabled"] != false {
		t.Fatalf("setup before: %d %v", code, st)
	}
	secret, backups := enrol(t, a, laptop)
	if code, st := laptop.getJSON(a, "/auth/two-factor/setup"); st["enabled"] != true || st["backupCodesLeft"] != float64(10) {
		t.Fatalf("setup after: %d %v", code, st)
	}

	phone := newBrowser(t)
	resp, body := firstFactor(t, a, phone)
	if resp.Request.URL.Path != "/auth/two-factor" || !strings.Contains(body, `name="code"`) {
		t.Fatalf("the first factor landed on %s, want the code form", resp.Request.URL)
	}
	if s := phone.session(a); s != nil {
		t.Fatalf("a session after the first factor alone: %v", s)
	}
	if code, _ := phone.twoFactor(a, "", url.Values{"code": {"000000"}}); code != http.StatusUnauthorized {
		t.Fatalf("a wrong code: %d, want 401", code)
	}
	code, out := phone.twoFactor(a, "", url.Values{"code": {backups[0]}})
	if code != http.StatusSeeOther || out["location"] != a.url+"/private" {
		t.Fatalf("a backup code: %d %v, want 303 to /private", code, out)
	}
	if phone.userID(a) == "" {
		t.Fatal("no session after the second factor")
	}
	if phone.cookie(a, "gatehouse.two-factor") != "" {
		t.Fatal("the pending cookie outlived the sign-in")
	}

	// The used backup code is spent; a TOTP code of the next step works
	// (the one of this step was used to confirm: RFC 6238 §5.2).
	tablet := newBrowser(t)
	firstFactor(t, a, tablet)
	if code, _ := tablet.twoFactor(a, "", url.Values{"code": {backups[0]}}); code != http.StatusUnauthorized {
		t.Fatalf("a used backup code: %d, want 401", code)
	}
	if code, _ := tablet.twoFactor(a, "", url.Values{"code": {totp(t, secret, 0)}}); code != http.StatusUnauthorized {
		t.Fatalf("a replayed TOTP code: %d, want 401", code)
	}
	if code, out := tablet.twoFactor(a, "", url.Values{"code": {totp(t, secret, 1)}}); code != http.StatusSeeOther {
		t.Fatalf("a fresh TOTP code: %d %v", code, out)
	}
	if tablet.userID(a) == "" {
		t.Fatal("no session after a TOTP code")
	}

	// Turning it off takes a code; the session cookie alone is not enough.
	if code, _ := laptop.twoFactor(a, "disable", url.Values{"code": {"nope"}}); code != http.StatusUnauthorized {
		t.Fatalf("disable without a good code: %d", code)
	}
	if code, out := laptop.twoFactor(a, "disable", url.Values{"code": {backups[1]}}); code != http.StatusOK || out["enabled"] != false {
		t.Fatalf("disable: %d %v", code, out)
	}
	signedIn(t, a, newBrowser(t)) // one factor again

	want := []gatehouse.TwoFactorChange{gatehouse.TwoFactorEnabled, gatehouse.TwoFactorCodeRefused, gatehouse.TwoFactorBackupUsed,
		gatehouse.TwoFactorCodeRefused, gatehouse.TwoFactorCodeRefused, gatehouse.TwoFactorCodeRefused, gatehouse.TwoFactorDisabled}
	if got := changes(); !equalChanges(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

func equalChanges(a, b []gatehouse.TwoFactorChange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// getJSON GETs path as JSON.
func (b *browser) getJSON(a *app, path string) (int, map[string]any) {
	b.T.Helper()
	resp := b.Get(a.url + path)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestTwoFactorPendingBoundToBrowser: an attacker who passed the first
// factor cannot hand their pending sign-in to another browser (a planted
// cookie), and a pending sign-in ends after five wrong codes.
func TestTwoFactorPendingBoundToBrowser(t *testing.T) {
	a, _ := twoFactorApp(t, nil)
	owner := newBrowser(t)
	signedIn(t, a, owner)
	_, backups := enrol(t, a, owner)

	attacker := newBrowser(t)
	firstFactor(t, a, attacker)
	pending := attacker.cookie(a, "gatehouse.two-factor")
	if pending == "" {
		t.Fatal("no pending cookie")
	}
	victim := newBrowser(t)
	victim.csrf(a)
	victim.setCookie(a, "gatehouse.two-factor", pending)
	code, out := victim.twoFactor(a, "", url.Values{"code": {backups[0]}})
	if code != http.StatusSeeOther || !strings.Contains(out["location"].(string), "error=TwoFactorFailed") || victim.session(a) != nil {
		t.Fatalf("a planted pending sign-in: %d %v", code, out)
	}

	// Five wrong codes, then the pending sign-in is spent even for a good one.
	for i := range 5 {
		if code, _ := attacker.twoFactor(a, "", url.Values{"code": {"12345" + string(rune('0'+i))}}); code != http.StatusUnauthorized {
			t.Fatalf("wrong code %d: %d", i, code)
		}
	}
	if code, _ := attacker.twoFactor(a, "", url.Values{"code": {backups[0]}}); code != http.StatusTooManyRequests {
		t.Fatalf("a sixth attempt: %d, want 429", code)
	}
	if attacker.session(a) != nil {
		t.Fatal("signed in past the attempt limit")
	}
}

// TestTwoFactorRaceOneBackupCode: one backup code sent by 20 browsers
// that passed the first factor at once signs in exactly one of them.
func TestTwoFactorRaceOneBackupCode(t *testing.T) {
	a, _ := twoFactorApp(t, func(cfg *gatehouse.Config) {
		cfg.RateLimit = nil
	})
	owner := newBrowser(t)
	signedIn(t, a, owner)
	_, backups := enrol(t, a, owner)
	const n = 20
	bs := make([]*browser, n)
	forms := make([]url.Values, n)
	for i := range bs {
		bs[i] = newBrowser(t)
		firstFactor(t, a, bs[i])
		forms[i] = url.Values{"code": {backups[0]}, "csrfToken": {bs[i].csrf(a)}}
	}
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range bs {
		wg.Go(func() {
			resp := bs[i].Post(a.url+"/auth/two-factor", forms[i])
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	won := 0
	for _, c := range codes {
		if c == http.StatusSeeOther {
			won++
		}
	}
	if won != 1 {
		t.Fatalf("%d browsers signed in with one backup code (%v)", won, codes)
	}
}

// TestTwoFactorNeedsStore: turning two-factor sign-in on with an adapter
// that cannot keep the secrets is a configuration error naming the field.
func TestTwoFactorNeedsStore(t *testing.T) {
	type plain struct{ adapter.Adapter }
	op := newOP(t, authtest.Options{})
	cfg := gatehouse.Config{Secret: []string{testSecret}, Adapter: plain{openStore(t, "memory").raw},
		Providers: []providers.Provider{devProvider(op)}, TwoFactor: twofactor.SignIn{}}
	_, err := gatehouse.New(cfg)
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "TwoFactor" {
		t.Fatalf("New = %v, want a ConfigError for TwoFactor", err)
	}
}

// TestTwoFactorSettingsLimited: a stolen session cannot guess its way to
// turning two-factor sign-in off: after 10 wrong codes even a good one is
// refused for the window.
func TestTwoFactorSettingsLimited(t *testing.T) {
	a, _ := twoFactorApp(t, nil)
	owner := newBrowser(t)
	signedIn(t, a, owner)
	_, backups := enrol(t, a, owner)
	for i := range 10 {
		if code, out := owner.twoFactor(a, "disable", url.Values{"code": {"99999" + string(rune('0'+i))}}); code != http.StatusUnauthorized || out["error"] != "invalid_code" {
			t.Fatalf("wrong code %d: %d %v", i, code, out)
		}
	}
	if code, out := owner.twoFactor(a, "disable", url.Values{"code": {backups[0]}}); code != http.StatusTooManyRequests || out["error"] != "too_many_attempts" {
		t.Fatalf("past the limit: %d %v, want 429", code, out)
	}
	if _, st := owner.getJSON(a, "/auth/two-factor/setup"); st["enabled"] != true {
		t.Fatalf("two-factor sign-in was turned off past the limit: %v", st)
	}
}

// TestTwoFactorNeedsStoreBehindRedis: Redis secondary storage over a
// primary without two-factor secrets is refused at New, not at the first
// enrolment.
func TestTwoFactorNeedsStoreBehindRedis(t *testing.T) {
	type plain struct{ adapter.Adapter }
	op := newOP(t, authtest.Options{})
	store := redisstore.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}), plain{memory.New()}, redisstore.Options{})
	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: store,
		Providers: []providers.Provider{devProvider(op)}, TwoFactor: twofactor.SignIn{}})
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "TwoFactor" {
		t.Fatalf("New = %v, want a ConfigError for TwoFactor", err)
	}
}

// TestTwoFactorAfterPassword: a password is a first factor like any
// other: with two-factor sign-in on, the right password alone makes no
// session, and the code finishes the sign-in where it was going.
func TestTwoFactorAfterPassword(t *testing.T) {
	a := newPwApp(t, func(c *gatehouse.Config, _ *passwordaccount.Config) {
		c.TwoFactor = twofactor.SignIn{}
	})
	b := newBrowser(t)
	a.postAs(b, "password/sign-up", url.Values{"email": {"ann@example.com"}, "password": {"correct horse battery"}}, false).Body.Close()
	b.FollowBody(b.Get(a.next(passwordaccount.KindVerify).URL))
	if a.signedIn(b) != "ann@example.com" {
		t.Fatal("not signed in after confirming")
	}
	_, backups := enrol(t, a.app, b)

	c := newBrowser(t)
	resp := a.signIn(c, "ann@example.com", "correct horse battery")
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != a.url+"/auth/two-factor" || a.signedIn(c) != "" {
		t.Fatalf("the password alone: %d to %q, signed in as %q", resp.StatusCode, loc, a.signedIn(c))
	}
	if code, out := c.twoFactor(a.app, "", url.Values{"code": {backups[0]}}); code != http.StatusSeeOther || out["location"] != a.url+"/private" {
		t.Fatalf("the backup code: %d %v", code, out)
	}
	if a.signedIn(c) != "ann@example.com" {
		t.Fatal("not signed in after the second factor")
	}
}

// TestTwoFactorKeepsProviderSID: a session made after the second factor
// records the provider's session id of the first, so that a back-channel
// logout by sid ends it (and only it).
func TestTwoFactorKeepsProviderSID(t *testing.T) {
	opts := twoUsers
	opts.SessionIDs = true
	a := newApp(t, opts, func(c *gatehouse.Config) {
		c.Adapter = memory.New()
		c.TwoFactor = twofactor.SignIn{}
	})
	owner := newBrowser(t)
	owner.signInUser(a, "alice")
	_, backups := enrol(t, a, owner)
	second := newBrowser(t)
	second.signInAs(a, "dev", "alice") // stops at the code form
	if code, _ := second.twoFactor(a, "", url.Values{"code": {backups[0]}}); code != http.StatusSeeOther || second.session(a) == nil {
		t.Fatalf("the second factor: %d", code)
	}
	sids := a.op.SIDs("alice")
	if len(sids) != 2 {
		t.Fatalf("sids issued to alice: %q", sids)
	}
	logOutAtProvider(t, a, "alice", map[string]any{"sid": sids[1], "sub": nil})
	if second.session(a) != nil {
		t.Fatal("the session made after the second factor survived a logout of its sid")
	}
	if owner.session(a) == nil {
		t.Fatal("the other session ended too")
	}
}

// TestFreshSignInRequired: turning two-factor sign-in on and unlinking an
// account take a recent sign-in (Session.FreshAge), with database and
// JWT sessions alike: a stolen session cookie alone cannot lock the user
// out. Within FreshAge (the other tests) both work.
func TestFreshSignInRequired(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			stale, _ := twoFactorApp(t, func(cfg *gatehouse.Config) {
				cfg.Session.Strategy = strategy
				cfg.Session.FreshAge = time.Nanosecond // every session is older
			})
			b := newBrowser(t)
			signedIn(t, stale, b)
			if code, out := b.twoFactor(stale, "enroll", url.Values{}); code != http.StatusForbidden || out["error"] != "fresh_sign_in" {
				t.Fatalf("enrolling with a stale session: %d %v", code, out)
			}
			if code, msg := b.unlink(stale, "dev"); code != http.StatusForbidden || !strings.Contains(msg, "fresh_sign_in") {
				t.Fatalf("unlinking with a stale session: %d %s", code, msg)
			}

			fresh, _ := twoFactorApp(t, func(cfg *gatehouse.Config) { cfg.Session.Strategy = strategy })
			c := newBrowser(t)
			signedIn(t, fresh, c)
			enrol(t, fresh, c) // fails the test unless it works
		})
	}
}

// TestTwoFactorFormStale: a settings form posted with a stale CSRF token
// gets the page again with a fresh token (403), not a JSON error; from
// another site, the sign-in page's banner.
func TestTwoFactorFormStale(t *testing.T) {
	a, _ := twoFactorApp(t, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	post := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/two-factor/enroll", strings.NewReader(url.Values{"csrfToken": {"stale"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "text/html")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		return b.Do(req)
	}
	resp := post("")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "The form had expired") || !strings.Contains(string(body), `name="csrfToken"`) {
		t.Fatalf("a stale form: %d %s", resp.StatusCode, body)
	}
	resp = post("https://evil.example")
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "error=") {
		t.Fatalf("a cross-site form: %d to %q", resp.StatusCode, loc)
	}
	if _, st := b.getJSON(a, "/auth/two-factor/setup"); st["enabled"] != false {
		t.Fatalf("a refused form changed the state: %v", st)
	}
}
