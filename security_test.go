package gatehouse_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/gatehouse-auth/gatehouse/twofactor"
	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"
	"github.com/redis/go-redis/v9"
)

// squatStores are the stores the takeover tests run on: the rule lives in
// one place above the adapters, but deleting a user and taking an address
// away are each adapter's own SQL.
var squatStores = []string{"memory", "sqlite", "postgres", "redis"}

// squatStore opens a new store of kind.
func squatStore(t *testing.T, kind string) adapter.Adapter {
	t.Helper()
	switch kind {
	case "postgres":
		return migratedPostgres(t)
	case "redis": // sessions in Redis, users in PostgreSQL
		rdb := redistest.NewClient(t)
		return redisstore.New(rdb, migratedPostgres(t), redisstore.Options{Prefix: redistest.Prefix(t, rdb)})
	}
	return openStore(t, kind).raw
}

// squatApp is an app with password accounts, an e-mail provider sending
// through a real SMTP server, and the OpenID provider "dev" with opOpts'
// users, on a store of kind.
func squatApp(t *testing.T, kind string, opOpts authtest.Options) (*pwApp, adapter.Adapter, *authtest.MailServer) {
	t.Helper()
	return mailPwApp(t, kind, opOpts, nil)
}

// mailPwApp is squatApp with mutate, when not nil, changing the Config,
// the password-accounts provider's and the e-mail provider's.
func mailPwApp(t *testing.T, kind string, opOpts authtest.Options, mutate func(*gatehouse.Config, *passwordaccount.Config, *email.Config)) (*pwApp, adapter.Adapter, *authtest.MailServer) {
	t.Helper()
	db := squatStore(t, kind)
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	a := newPwAppWith(t, opOpts, func(c *gatehouse.Config, p *passwordaccount.Config) {
		c.Adapter = db
		e := email.Config{Server: ms.URL(), From: "Gatehouse <no-reply@example.com>"}
		if mutate != nil {
			mutate(c, p, &e)
		}
		c.Providers = append(c.Providers, e)
	})
	return a, db, ms
}

// emailSignIn signs b in with a link sent to addr and returns the final
// page's body.
func emailSignIn(t *testing.T, a *pwApp, ms *authtest.MailServer, b *browser, addr string) string {
	t.Helper()
	b.Post(a.url+"/auth/signin/email", url.Values{"csrfToken": {b.csrf(a.app)}, "email": {addr}, "callbackUrl": {"/private"}}).Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, body := b.FollowBody(b.Get(msg.Link()))
	return body
}

// signedInID is the id of the user b is signed in as, "" for none.
func signedInID(a *app, b *browser) string {
	u, _ := b.session(a)["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

// TestNoTakeoverBySigningUpFirst: an attacker signs up with the victim's
// address and a password of their own and never confirms. The victim's
// first sign-in by another route that proves the address (an e-mail link,
// a provider's verified address) is neither blocked by that sign-up nor
// handed the attacker's password: the victim gets a user of their own
// and the attacker's password signs in nobody.
func TestNoTakeoverBySigningUpFirst(t *testing.T) {
	for _, kind := range squatStores {
		for _, route := range []string{"email", "oidc"} {
			t.Run(kind+"/"+route, func(t *testing.T) {
				t.Parallel()
				a, db, ms := squatApp(t, kind, authtest.Options{})
				const victimAddr = "alice@example.com" // the provider's verified user
				attacker := newBrowser(t)
				if code, v := jsonOf(t, a.postAs(attacker, "password/sign-up", url.Values{"email": {victimAddr}, "password": {"attacker password"}, "name": {"Mallory"}}, false)); code != http.StatusOK {
					t.Fatalf("sign-up: %d %v", code, v)
				}
				a.next(passwordaccount.KindVerify) // to the victim's mailbox, never opened
				squatter, err := db.GetUserByEmail(context.Background(), victimAddr)
				if err != nil {
					t.Fatal(err)
				}

				victim := newBrowser(t)
				var body string
				if route == "email" {
					body = emailSignIn(t, a, ms, victim, victimAddr)
				} else {
					_, body = victim.signIn(a.app, "dev", "/private")
				}
				if body != "hello "+victimAddr {
					t.Fatalf("the victim's sign-in was refused: %q (hops %v)", body, victim.Hops)
				}
				if id := signedInID(a.app, victim); id == "" || id == squatter.ID {
					t.Fatalf("the victim signed in as %q, the squatter's user is %q", id, squatter.ID)
				}
				resp := a.signIn(newBrowser(t), victimAddr, "attacker password")
				if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=CredentialsSignin") {
					t.Fatalf("the attacker's password still signs in: %d %s", resp.StatusCode, loc)
				}
				if u, err := db.GetUserByEmail(context.Background(), victimAddr); err != nil || u.Name == "Mallory" || u.EmailVerified == nil {
					t.Fatalf("the address's user: %+v, %v", u, err)
				}
			})
		}
	}
}

// TestNoTakeoverThroughUnverifiedProvider: the attacker signs in with a
// provider account that claims the victim's address unverified, creating
// a user that holds the address. The victim's e-mail-link sign-in proves
// the address: it gets a user of its own, and the attacker's provider
// account still signs in only the attacker's user, which no longer has the
// address.
func TestNoTakeoverThroughUnverifiedProvider(t *testing.T) {
	for _, kind := range squatStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			const victimAddr = "victim@example.com"
			a, db, ms := squatApp(t, kind, authtest.Options{Users: []authtest.User{{Subject: "mallory", Name: "Mallory", Email: victimAddr}}})
			attacker := newBrowser(t)
			if _, body := attacker.signIn(a.app, "dev", "/private"); body != "hello "+victimAddr {
				t.Fatalf("the attacker's provider sign-in: %q", body)
			}
			squatterID := signedInID(a.app, attacker)

			victim := newBrowser(t)
			if body := emailSignIn(t, a, ms, victim, victimAddr); body != "hello "+victimAddr {
				t.Fatalf("the victim's sign-in: %q", body)
			}
			if id := signedInID(a.app, victim); id == "" || id == squatterID {
				t.Fatalf("the victim signed in as %q, the attacker's user is %q", id, squatterID)
			}
			again := newBrowser(t)
			again.signIn(a.app, "dev", "/")
			if id := signedInID(a.app, again); id != squatterID {
				t.Fatalf("the attacker's provider account signs in %q, want their own user %q", id, squatterID)
			}
			if u, err := db.GetUser(context.Background(), squatterID); err != nil || u.Email != "" {
				t.Fatalf("the attacker's user: %+v, %v", u, err)
			}
		})
	}
}

// TestConfirmedPasswordSurvivesEmailLink: a confirmed password account
// signing in by e-mail link is the same user, and its password still
// works: only unproven credentials are discarded.
func TestConfirmedPasswordSurvivesEmailLink(t *testing.T) {
	a, db, ms := squatApp(t, "memory", authtest.Options{})
	b := newBrowser(t)
	jsonOf(t, a.postAs(b, "password/sign-up", url.Values{"email": {"ann@example.com"}, "password": {"correct horse battery"}}, false))
	b.FollowBody(b.Get(a.next(passwordaccount.KindVerify).URL))
	owner, err := db.GetUserByEmail(context.Background(), "ann@example.com")
	if err != nil || owner.EmailVerified == nil {
		t.Fatalf("confirmed user: %+v, %v", owner, err)
	}
	other := newBrowser(t)
	emailSignIn(t, a, ms, other, "ann@example.com")
	if id := signedInID(a.app, other); id != owner.ID {
		t.Fatalf("the link signed in %q, want the confirmed user %q", id, owner.ID)
	}
	if _, body := other.FollowBody(a.signIn(newBrowser(t), "ann@example.com", "correct horse battery")); body != "hello ann@example.com" {
		t.Fatalf("the confirmed password stopped working: %q", body)
	}
}

// TestTwoFactorPendingSingleUse: a copy of a pending two-factor sign-in
// (its cookie and the CSRF cookie it is bound to), taken while the user
// is at the code step, makes no session once the user has finished, even
// with another valid code, on the same instance or another one sharing
// the store.
func TestTwoFactorPendingSingleUse(t *testing.T) {
	for _, instances := range []string{"one instance", "one instance on SQLite", "two instances on PostgreSQL"} {
		t.Run(instances, func(t *testing.T) {
			t.Parallel()
			var first, second *app
			switch instances {
			case "one instance":
				first, _ = twoFactorApp(t, nil)
				second = first
			default:
				var db adapter.Adapter
				if instances == "one instance on SQLite" {
					db = openStore(t, "sqlite").raw
				} else {
					db = migratedPostgres(t)
				}
				op := newOP(t, authtest.Options{AutoApprove: true})
				mk := func() *app {
					return startApp(t, op, func(c *gatehouse.Config) {
						c.Adapter = db
						c.TwoFactor = twofactor.SignIn{}
					})
				}
				first = mk()
				second = first
				if instances == "two instances on PostgreSQL" {
					second = mk()
				}
			}
			owner := newBrowser(t)
			signedIn(t, first, owner)
			_, backups := enrol(t, first, owner)

			user := newBrowser(t)
			firstFactor(t, first, user)
			thief := newBrowser(t)
			for _, name := range []string{"gatehouse.two-factor", "authjs.csrf-token"} {
				v := user.cookie(first, name)
				if v == "" {
					t.Fatalf("no %s cookie", name)
				}
				thief.setCookie(second, name, v)
			}
			if code, out := user.twoFactor(first, "", url.Values{"code": {backups[0]}}); code != http.StatusSeeOther || user.session(first) == nil {
				t.Fatalf("the user's own second step: %d %v", code, out)
			}
			code, out := thief.twoFactor(second, "", url.Values{"code": {backups[1]}})
			if loc, _ := out["location"].(string); code != http.StatusSeeOther || !strings.Contains(loc, "error=TwoFactorFailed") || !strings.Contains(loc, "two_factor_used") {
				t.Fatalf("the copy after the user finished: %d %v", code, out)
			}
			if thief.session(second) != nil {
				t.Fatal("the copy made a session")
			}

			// The guess limit reached through one copy ends the others,
			// even on an instance whose own counts are untouched.
			guesser := newBrowser(t)
			firstFactor(t, first, guesser)
			copied := newBrowser(t)
			for _, name := range []string{"gatehouse.two-factor", "authjs.csrf-token"} {
				copied.setCookie(second, name, guesser.cookie(first, name))
			}
			for i := range 6 {
				guesser.twoFactor(first, "", url.Values{"code": {fmt.Sprintf("00000%d", i)}})
			}
			code, out = copied.twoFactor(second, "", url.Values{"code": {backups[2]}})
			// One instance refuses it by its count (429), another by the
			// spent record.
			loc, _ := out["location"].(string)
			refused := code == http.StatusTooManyRequests || (code == http.StatusSeeOther && strings.Contains(loc, "two_factor_used"))
			if !refused || copied.session(second) != nil {
				t.Fatalf("a copy after the guess limit: %d %v", code, out)
			}
		})
	}
}

// TestTwoFactorConfirmWhenOn: confirming again once two-factor sign-in is
// on (a second tab, a double click) is the user's mistake: 409 with its
// own code, not a 503 that looks like an outage.
func TestTwoFactorConfirmWhenOn(t *testing.T) {
	a, _ := twoFactorApp(t, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	secret, _ := enrol(t, a, b)
	code, out := b.twoFactor(a, "confirm", url.Values{"code": {totp(t, secret, 1)}})
	if code != http.StatusConflict || out["error"] != "already_enabled" || out["enabled"] != true {
		t.Fatalf("confirm when on: %d %v", code, out)
	}
}

// TestWithoutMiddleware: an application that forgot the Middleware still
// lets its signed-in users through Require and renders forms with a
// working CSRF token through Execute; the bare Funcs, which cannot set a
// cookie, fail with ErrNoCSRFToken instead of rendering an empty token.
func TestWithoutMiddleware(t *testing.T) {
	op := newOP(t, authtest.Options{AutoApprove: true})
	ln := listenLocal(t)
	base := "http://" + ln.Addr().String()
	h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: base + "/auth", Providers: []providers.Provider{devProvider(op)}})
	tmpl := template.Must(template.New("t").Funcs(h.FuncMap()).Parse(`{{ signIn "dev" }}|{{ with session }}{{ .User.Email }}{{ end }}`))
	mux := siteMux(h) // /auth/, /private (Require) and /
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Execute(w, r, tmpl, nil); err != nil {
			t.Errorf("Execute: %v", err)
		}
	})
	mux.HandleFunc("/bare", func(w http.ResponseWriter, r *http.Request) {
		bare := template.Must(template.New("t").Funcs(h.FuncMap()).Parse(`{{ signIn "dev" }}`))
		err := bare.Funcs(h.Funcs(r)).Execute(io.Discard, nil)
		io.WriteString(w, fmt.Sprint(errors.Is(err, gatehouse.ErrNoCSRFToken)))
	})
	serveOn(t, ln, mux, false) // no Middleware

	b := newBrowser(t)
	resp := b.Get(base + "/bare")
	if body, _ := io.ReadAll(resp.Body); string(body) != "true" {
		t.Fatalf("bare Funcs without a CSRF cookie: ErrNoCSRFToken %s", body)
	}
	resp = b.Get(base + "/page")
	page, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`name="csrfToken" value="([A-Za-z0-9_-]{43})"`).FindStringSubmatch(string(page))
	if m == nil {
		t.Fatalf("Execute rendered no CSRF token:\n%s", page)
	}
	// The rendered form works: it signs in.
	if _, body := b.PostSignIn(base+"/auth/signin/dev", url.Values{"csrfToken": {m[1]}, "callbackUrl": {"/private"}}); body != "hello alice@example.com" {
		t.Fatalf("signing in with the rendered form, then Require: %q (hops %v)", body, b.Hops)
	}
	resp = b.Get(base + "/page")
	if page, _ := io.ReadAll(resp.Body); !strings.HasSuffix(string(page), "|alice@example.com") {
		t.Fatalf("Execute does not see the session:\n%s", page)
	}
	if resp := newBrowser(t).Get(base + "/private"); resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "/auth/signin?callbackUrl=%2Fprivate") {
		t.Fatalf("Require for nobody: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestCSRFCookieThatNoLongerVerifies: a browser whose CSRF cookie does
// not verify is given a new pair by the Middleware on its next page, and
// the form rendered there signs in. Such a cookie is one of an earlier
// format (Auth.js's shape, 64 hex characters, "|", 64 more), one made
// under a secret since taken out of Config.Secret, or a forgery of the
// right shape. Without the check the page would render no token (the
// helpers refuse to render an empty one) until the browser drops the
// cookie.
func TestCSRFCookieThatNoLongerVerifies(t *testing.T) {
	retired, err := checks.NewCSRF([]string{"a secret since taken out of the list, 32 bytes or more"})
	if err != nil {
		t.Fatal(err)
	}
	_, underRetired := retired.NewPair()
	token, _ := retired.NewPair()
	for _, tc := range []struct{ name, cookie string }{
		{"earlier format", strings.Repeat("a", 64) + "|" + strings.Repeat("b", 64)},
		{"retired secret", underRetired},
		{"forged", token + "|" + strings.Repeat("A", 22)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !checks.CSRFShaped(tc.cookie) && tc.name != "earlier format" {
				t.Fatalf("the test's cookie %q is not of the current shape", tc.cookie)
			}
			op := newOP(t, authtest.Options{AutoApprove: true})
			ln := listenLocal(t)
			base := "http://" + ln.Addr().String()
			h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: base + "/auth", Providers: []providers.Provider{devProvider(op)}})
			tmpl := template.Must(template.New("t").Funcs(h.FuncMap()).Parse(`{{ signIn "dev" }}`))
			mux := siteMux(h)
			mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
				if err := tmpl.Funcs(h.Funcs(r)).Execute(w, nil); err != nil {
					t.Errorf("template: %v", err)
				}
			})
			serveOn(t, ln, h.Middleware(mux), false)
			a := &app{t: t, op: op, url: base}

			b := newBrowser(t)
			b.setCookie(a, "authjs.csrf-token", tc.cookie)
			resp := b.Get(base + "/page")
			page, _ := io.ReadAll(resp.Body)
			m := regexp.MustCompile(`name="csrfToken" value="([A-Za-z0-9_-]{43})"`).FindStringSubmatch(string(page))
			if m == nil {
				t.Fatalf("no CSRF token rendered for a browser whose cookie does not verify:\n%s", page)
			}
			if c := b.cookie(a, "authjs.csrf-token"); c == tc.cookie || !strings.HasPrefix(c, m[1]+"|") {
				t.Fatalf("CSRF cookie %q after the page, token %q", c, m[1])
			}
			if _, body := b.PostSignIn(base+"/auth/signin/dev", url.Values{"csrfToken": {m[1]}, "callbackUrl": {"/private"}}); body != "hello alice@example.com" {
				t.Fatalf("signing in with the rendered form: %q (hops %v)", body, b.Hops)
			}
		})
	}
}

// TestUnlinkKeepsAWorkingWayIn: unlinking never leaves a user without a
// way in that works, and only working ways count. A credentials account
// (the site's own sign-in) cannot be unlinked: with an e-mail provider
// beside it, unlinking it used to be allowed, and the next sign-in with
// the same credentials then found the address taken. A password never
// confirmed, or an e-mail link to an address never proven, does not
// count as a way in. The accounts page lists every way in.
func TestUnlinkKeepsAWorkingWayIn(t *testing.T) {
	t.Run("credentials account", func(t *testing.T) {
		ms, err := authtest.NewMailServer(authtest.MailOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ms.Close() })
		a := newCredsApp(t, func(c *gatehouse.Config, _ *credentials.Config) {
			c.Adapter = memory.New()
			c.SelfService = selfservice.Routes{}
			c.Providers = append(c.Providers, email.Config{Server: ms.URL(), From: "Gatehouse <no-reply@example.com>"})
		})
		b := newBrowser(t)
		if _, body := b.FollowBody(a.post(b, "jane", "correct horse")); body != "hello jane@example.com" {
			t.Fatalf("sign-in: %q", body)
		}
		if code, body := b.unlink(a.app, "credentials"); code != http.StatusConflict || !strings.Contains(body, "not_unlinkable") {
			t.Fatalf("unlinking the credentials account: %d %s", code, body)
		}
		if _, list := b.accounts(a.app); len(list) != 1 || list[0]["canUnlink"] != false {
			t.Fatalf("accounts: %v", list)
		}
		again := newBrowser(t)
		if _, body := again.FollowBody(a.post(again, "jane", "correct horse")); body != "hello jane@example.com" {
			t.Fatalf("the next sign-in with the same credentials: %q", body)
		}
	})
	t.Run("unconfirmed password", func(t *testing.T) {
		a := newPwAppWith(t, authtest.Options{Users: []authtest.User{{Subject: "bo", Name: "Bo", Email: "bo@example.com"}}}, nil)
		b := newBrowser(t)
		b.signIn(a.app, "dev", "/")
		u, err := a.db.GetUserByEmail(context.Background(), "bo@example.com")
		if err != nil || u.EmailVerified != nil {
			t.Fatalf("user %+v, %v", u, err)
		}
		if err := a.db.SetPasswordHash(context.Background(), u.ID, "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"); err != nil {
			t.Fatal(err)
		}
		if code, body := b.unlink(a.app, "dev"); code != http.StatusConflict || !strings.Contains(body, "last_way") {
			t.Fatalf("unlinking the only working way beside an unconfirmed password: %d %s", code, body)
		}
	})
	t.Run("e-mail link to an unproven address", func(t *testing.T) {
		a, _, _ := squatApp(t, "memory", authtest.Options{Users: []authtest.User{{Subject: "cy", Name: "Cy", Email: "cy@example.com"}}})
		b := newBrowser(t)
		b.signIn(a.app, "dev", "/")
		if code, body := b.unlink(a.app, "dev"); code != http.StatusConflict || !strings.Contains(body, "last_way") {
			t.Fatalf("unlinking the only working way beside an e-mail link to an unproven address: %d %s", code, body)
		}
	})
	t.Run("the page lists the password", func(t *testing.T) {
		a := newPwApp(t, nil)
		b := newBrowser(t)
		jsonOf(t, a.postAs(b, "password/sign-up", url.Values{"email": {"dee@example.com"}, "password": {"correct horse battery"}}, false))
		b.FollowBody(b.Get(a.next(passwordaccount.KindVerify).URL))
		_, page := b.page(a.url + "/auth/accounts")
		if !strings.Contains(page, "<h2>Other ways to sign in</h2>") || !strings.Contains(page, "<li>Password</li>") {
			t.Fatalf("a password user's accounts page:\n%s", page)
		}
	})
}

// TestOutageLogsOnce: while the database is down, every signed-in
// request fails the same way; 300 of them from 16 clients write one log
// line (the rest are counted into one summary at the window's end), not
// one line per request.
func TestOutageLogsOnce(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	log := &syncBuffer{}
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = store
		cfg.Session.Strategy = gatehouse.StrategyDatabase
		cfg.Logger = slog.New(slog.NewTextHandler(log, nil))
	})
	b := newBrowser(t)
	signedIn(t, a, b)
	before := strings.Count(log.String(), "\n")
	store.down.Store(true)
	var wg sync.WaitGroup
	var unavailable atomic.Int32
	for range 16 {
		wg.Go(func() {
			for range 300 / 16 {
				resp := b.Get(a.url + "/private")
				resp.Body.Close()
				if resp.StatusCode == http.StatusServiceUnavailable {
					unavailable.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := unavailable.Load(); n != 300/16*16 {
		t.Fatalf("%d of %d requests answered 503", n, 300/16*16)
	}
	if lines := strings.Count(log.String(), "\n") - before; lines != 1 {
		t.Fatalf("the outage wrote %d log lines, want 1:\n%s", lines, log.String())
	}
}

// TestEmailLinkProvesSignedInUsersAddress: a signed-in user whose address
// was never proven follows an e-mail link to it in the same browser: the
// address becomes proven on their own user (their session shows it is
// them), not taken away into a new user.
func TestEmailLinkProvesSignedInUsersAddress(t *testing.T) {
	a, db, ms := squatApp(t, "memory", authtest.Options{Users: []authtest.User{{Subject: "di", Name: "Di", Email: "di@example.com"}}})
	b := newBrowser(t)
	b.signIn(a.app, "dev", "/")
	id := signedInID(a.app, b)
	if body := emailSignIn(t, a, ms, b, "di@example.com"); body != "hello di@example.com" {
		t.Fatalf("the link: %q", body)
	}
	if got := signedInID(a.app, b); got != id {
		t.Fatalf("signed in as %q after the link, want the same user %q", got, id)
	}
	if u, err := db.GetUser(context.Background(), id); err != nil || u.Email != "di@example.com" || u.EmailVerified == nil {
		t.Fatalf("the user after proving the address: %+v, %v", u, err)
	}
}

// attackStores are the stores the account attacks run on: the memory
// adapter, and PostgreSQL where single use and deletes are its own SQL.
var attackStores = []string{"memory", "postgres"}

// sessionStores add sessions in Redis (users in PostgreSQL), for the
// attacks on ending sessions.
var sessionStores = append(attackStores[:len(attackStores):len(attackStores)], "redis")

// allFeaturesApp is an app with every account feature on at once on a
// store of kind (squatStore's kinds): password accounts, e-mail links
// through a real SMTP server, two-factor sign-in, database sessions and
// the OpenID provider "dev" with opOpts' users. The send and request
// limits are off, so that what a test sees is the route's own answer.
func allFeaturesApp(t *testing.T, kind string, opOpts authtest.Options, mutate func(*gatehouse.Config)) (*pwApp, adapter.Adapter, *authtest.MailServer) {
	t.Helper()
	return mailPwApp(t, kind, opOpts, func(c *gatehouse.Config, p *passwordaccount.Config, e *email.Config) {
		c.RateLimit = limit.None{}
		c.TwoFactor = twofactor.SignIn{}
		p.SendPerIP, p.SendPerIdentifier = limit.None{}, limit.None{}
		e.PerIP, e.PerIdentifier = limit.None{}, limit.None{}
		if mutate != nil {
			mutate(c)
		}
	})
}

// confirmedPasswordUser signs addr up with pw, opens the confirmation
// link in b, and fails the test unless b is then signed in as addr.
func confirmedPasswordUser(t *testing.T, a *pwApp, b *browser, addr, pw string) {
	t.Helper()
	if code, v := jsonOf(t, a.postAs(b, "password/sign-up", url.Values{"email": {addr}, "password": {pw}}, false)); code != http.StatusOK {
		t.Fatalf("sign-up: %d %v", code, v)
	}
	b.FollowBody(b.Get(a.next(passwordaccount.KindVerify).URL))
	if got := a.signedIn(b); got != addr {
		t.Fatalf("after confirming, signed in as %q, want %q", got, addr)
	}
}

// twoFactorPasswordUser is confirmedPasswordUser, then two-factor sign-in
// turned on by the user in b; it returns their backup codes and user id.
func twoFactorPasswordUser(t *testing.T, a *pwApp, b *browser, addr, pw string) ([]string, string) {
	t.Helper()
	confirmedPasswordUser(t, a, b, addr, pw)
	_, codes := enrol(t, a.app, b)
	return codes, b.userID(a.app)
}

// resetLink asks from b for a password reset link to addr (answered 200)
// and returns the link's query: its email and token.
func resetLink(t *testing.T, a *pwApp, b *browser, addr string) url.Values {
	t.Helper()
	if code, v := jsonOf(t, a.postAs(b, "password/forgot", url.Values{"email": {addr}}, false)); code != http.StatusOK {
		t.Fatalf("forgot: %d %v", code, v)
	}
	return mustParse(t, a.next(passwordaccount.KindReset).URL).Query()
}

// resetPassword posts the reset form from b with the reset link's query
// and the new password pw, and returns the JSON answer.
func resetPassword(t *testing.T, a *pwApp, b *browser, link url.Values, pw string) (int, map[string]any) {
	t.Helper()
	return jsonOf(t, a.postAs(b, "password/reset", url.Values{"email": {link.Get("email")}, "token": {link.Get("token")}, "password": {pw}}, false))
}

// askLink asks for a sign-in link to addr from b (to /private) and
// returns the link sent.
func askLink(t *testing.T, a *pwApp, ms *authtest.MailServer, b *browser, addr string) string {
	t.Helper()
	a.postAs(b, "signin/email", url.Values{"email": {addr}, "callbackUrl": {"/private"}}, false).Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return msg.Link()
}

// atCodeStep fails the test unless resp, the end of a first factor, sent
// b to the code form and b has no session.
func atCodeStep(t *testing.T, a *app, b *browser, resp *http.Response, route string) {
	t.Helper()
	resp.Body.Close()
	if resp.Request.URL.Path != "/auth/two-factor" && resp.Header.Get("Location") != a.url+"/auth/two-factor" {
		t.Fatalf("%s: the first factor ended at %s (status %d, Location %q), want the code form", route, resp.Request.URL, resp.StatusCode, resp.Header.Get("Location"))
	}
	if s := b.session(a); s != nil {
		t.Fatalf("%s: a session after the first factor alone: %v", route, s)
	}
}

// secondStep checks that resp, the end of a first factor, left b at the
// code form (see atCodeStep), sends a wrong code (refused, no session)
// and then code, and fails the test unless b is then signed in as userID.
func secondStep(t *testing.T, a *app, b *browser, resp *http.Response, code, userID, route string) {
	t.Helper()
	atCodeStep(t, a, b, resp, route)
	if st, out := b.twoFactor(a, "", url.Values{"code": {"000000"}}); st != http.StatusUnauthorized || b.session(a) != nil {
		t.Fatalf("%s: a wrong code: %d %v", route, st, out)
	}
	if st, out := b.twoFactor(a, "", url.Values{"code": {code}}); st != http.StatusSeeOther {
		t.Fatalf("%s: the right code: %d %v", route, st, out)
	}
	if id := b.userID(a); id != userID {
		t.Fatalf("%s: signed in as %q after the code, want %q", route, id, userID)
	}
}

// attempt is one request of a user's mistake.
type attempt struct {
	name, method, path string
	as                 *browser
	form               url.Values // nil for a GET
	csrf               string     // "good" (the default), "none" or "wrong"
	refuses            bool       // the answer must refuse: ≥ 400, or a redirect to sign in or to an error
}

// send makes the request of at, as a JSON client or a browser's page
// (Accept: text/html), from the app's own origin.
func (at attempt) send(a *app, html bool) *http.Response {
	b := at.as
	var body io.Reader
	if at.form != nil {
		form := url.Values{}
		for k, v := range at.form {
			form[k] = v
		}
		switch at.csrf {
		case "", "good":
			form.Set("csrfToken", b.csrf(a))
		case "wrong":
			b.csrf(a)
			form.Set("csrfToken", strings.Repeat("0", 43))
		}
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(at.method, a.url+"/auth/"+at.path, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", a.url)
	}
	if html {
		req.Header.Set("Accept", "text/html,application/xhtml+xml")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	return b.Do(req)
}

// refusal reports whether resp refuses: a 4xx, or a redirect to the
// sign-in page (to come back after signing in, or with an error) or to
// the error page with an error type that is not the server's
// (AdapterError, Configuration).
func refusal(resp *http.Response) bool {
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return true
	}
	if resp.StatusCode < 300 || resp.StatusCode >= 400 {
		return false
	}
	loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
	if err != nil {
		return false
	}
	q := loc.Query()
	switch e := q.Get("error"); {
	case e == "AdapterError" || e == "Configuration":
		return false // the server's fault, not the user's mistake
	case loc.Path == "/auth/error":
		return e != ""
	case loc.Path == "/auth/signin":
		return e != "" || q.Get("callbackUrl") != ""
	}
	return false
}

// TestAccountRoutesAnswer4xxForMistakes: every account-feature route
// answers a user's ordinary mistakes (signed out, a missing or wrong CSRF
// token, missing fields, a bad or used token or link, a wrong code, a
// code when not enrolled, enrolling when on, disabling when off, a
// provider not linked, another user's or no session, a short password,
// an unknown address) with a 4xx or a redirect to sign in or to the
// error page, never a 5xx, as JSON and as a page; and none of them
// changed the account.
func TestAccountRoutesAnswer4xxForMistakes(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			// alice's address is not proven by the provider: an e-mail link
			// to it is no way in, and the provider is her only one.
			a, db, ms := allFeaturesApp(t, kind, authtest.Options{Users: []authtest.User{{Subject: "alice", Name: "Alice", Email: "alice@example.com"}}}, nil)
			ctx := context.Background()

			// owner: a confirmed password user with two-factor sign-in on.
			owner := newBrowser(t)
			backups, ownerID := twoFactorPasswordUser(t, a, owner, "owner@example.com", "correct horse battery")
			// plain: the provider's alice, two-factor sign-in off, one way
			// in.
			plain := newBrowser(t)
			signedIn(t, a.app, plain)
			anon := newBrowser(t)
			// pending: the owner's password, stopped at the code form.
			pending := newBrowser(t)
			atCodeStep(t, a.app, pending, a.signIn(pending, "owner@example.com", "correct horse battery"), "password")
			// turnedOff: at the code form of a user who then turned
			// two-factor sign-in off (another tab, another device).
			offUser := newBrowser(t)
			confirmedPasswordUser(t, a, offUser, "off@example.com", "correct horse battery")
			_, offCodes := enrol(t, a.app, offUser)
			turnedOff := newBrowser(t)
			atCodeStep(t, a.app, turnedOff, a.signIn(turnedOff, "off@example.com", "correct horse battery"), "password")
			if code, out := offUser.twoFactor(a.app, "disable", url.Values{"code": {offCodes[0]}}); code != http.StatusOK {
				t.Fatalf("disable: %d %v", code, out)
			}
			// forged: a pending cookie that is not one.
			forged := newBrowser(t)
			forged.csrf(a.app)
			forged.setCookie(a.app, "gatehouse.two-factor", "not-a-sealed-value")

			// A used e-mail link and a used confirmation link.
			usedLink := askLink(t, a, ms, anon, "links@example.com")
			newBrowser(t).Get(usedLink).Body.Close()
			usedEmailPath := strings.TrimPrefix(usedLink, a.url+"/auth/")

			a.postAs(anon, "password/sign-up", url.Values{"email": {"verified@example.com"}, "password": {"correct horse battery"}}, false).Body.Close()
			verify := a.next(passwordaccount.KindVerify).URL
			newBrowser(t).Get(verify).Body.Close()
			usedVerifyPath := strings.TrimPrefix(verify, a.url+"/auth/")
			vq := mustParse(t, verify).Query()
			forgedToken := strings.Repeat("ab", len(vq.Get("token"))/2)

			_, list := owner.sessions(a.app)
			if len(list) != 1 {
				t.Fatalf("the owner's sessions: %v", list)
			}
			ownersSession := list[0]["id"].(string)

			f := func(kv ...string) url.Values {
				v := url.Values{}
				for i := 0; i+1 < len(kv); i += 2 {
					v.Set(kv[i], kv[i+1])
				}
				return v
			}
			attempts := []attempt{
				// Two-factor settings.
				{name: "setup signed out", method: "GET", path: "two-factor/setup", as: anon, refuses: true},
				{name: "enroll signed out", method: "POST", path: "two-factor/enroll", as: anon, form: f(), refuses: true},
				{name: "enroll without CSRF", method: "POST", path: "two-factor/enroll", as: plain, form: f(), csrf: "none", refuses: true},
				{name: "enroll with a wrong CSRF token", method: "POST", path: "two-factor/enroll", as: plain, form: f(), csrf: "wrong", refuses: true},
				{name: "enroll when on", method: "POST", path: "two-factor/enroll", as: owner, form: f(), refuses: true},
				{name: "confirm when on", method: "POST", path: "two-factor/confirm", as: owner, form: f("code", "123456"), refuses: true},
				{name: "confirm signed out", method: "POST", path: "two-factor/confirm", as: anon, form: f("code", "123456"), refuses: true},
				{name: "confirm when never enrolled", method: "POST", path: "two-factor/confirm", as: plain, form: f("code", "123456"), refuses: true},
				{name: "confirm without a code", method: "POST", path: "two-factor/confirm", as: plain, form: f(), refuses: true},
				{name: "backup codes with a wrong code", method: "POST", path: "two-factor/backup-codes", as: owner, form: f("code", "000000"), refuses: true},
				{name: "backup codes without a code", method: "POST", path: "two-factor/backup-codes", as: owner, form: f(), refuses: true},
				{name: "backup codes when off", method: "POST", path: "two-factor/backup-codes", as: plain, form: f("code", "123456"), refuses: true},
				{name: "disable when off", method: "POST", path: "two-factor/disable", as: plain, form: f("code", "123456"), refuses: true},
				{name: "disable with a malformed code", method: "POST", path: "two-factor/disable", as: owner, form: f("code", "<script>"), refuses: true},
				{name: "disable signed out", method: "POST", path: "two-factor/disable", as: anon, form: f("code", backups[0]), refuses: true},
				{name: "disable without CSRF", method: "POST", path: "two-factor/disable", as: owner, form: f("code", backups[0]), csrf: "none", refuses: true},
				{name: "an unknown settings action", method: "POST", path: "two-factor/nope", as: owner, form: f(), refuses: true},
				// The sign-in step.
				{name: "a code with no pending sign-in", method: "POST", path: "two-factor", as: anon, form: f("code", "123456"), refuses: true},
				{name: "a code from a user signed in, not pending", method: "POST", path: "two-factor", as: plain, form: f("code", "123456"), refuses: true},
				{name: "a wrong code", method: "POST", path: "two-factor", as: pending, form: f("code", "000000"), refuses: true},
				{name: "no code", method: "POST", path: "two-factor", as: pending, form: f(), refuses: true},
				{name: "a code without CSRF", method: "POST", path: "two-factor", as: pending, form: f("code", "000000"), csrf: "none", refuses: true},
				{name: "a code after two-factor sign-in was turned off", method: "POST", path: "two-factor", as: turnedOff, form: f("code", offCodes[1]), refuses: true},
				{name: "a forged pending cookie", method: "POST", path: "two-factor", as: forged, form: f("code", "123456"), refuses: true},
				// Password accounts.
				{name: "sign-up page", method: "GET", path: "password/sign-up?email=%3Cscript%3E", as: anon},
				{name: "sign-up without CSRF", method: "POST", path: "password/sign-up", as: anon, form: f("email", "new@example.com", "password", "correct horse battery"), csrf: "none", refuses: true},
				{name: "sign-up with a wrong CSRF token", method: "POST", path: "password/sign-up", as: anon, form: f("email", "new@example.com", "password", "correct horse battery"), csrf: "wrong", refuses: true},
				{name: "sign-up without fields", method: "POST", path: "password/sign-up", as: anon, form: f(), refuses: true},
				{name: "sign-up without a password", method: "POST", path: "password/sign-up", as: anon, form: f("email", "new@example.com"), refuses: true},
				{name: "sign-up with a short password", method: "POST", path: "password/sign-up", as: anon, form: f("email", "new@example.com", "password", "short"), refuses: true},
				{name: "sign-up with a malformed address", method: "POST", path: "password/sign-up", as: anon, form: f("email", "not an address", "password", "correct horse battery"), refuses: true},
				{name: "verify without a token", method: "GET", path: "password/verify", as: anon, refuses: true},
				{name: "verify with a malformed token", method: "GET", path: "password/verify?email=verified%40example.com&token=%ZZ", as: anon, refuses: true},
				{name: "verify with a made-up token", method: "GET", path: "password/verify?" + url.Values{"email": {"verified@example.com"}, "token": {forgedToken}}.Encode(), as: anon, refuses: true},
				{name: "verify with an unknown address", method: "GET", path: "password/verify?" + url.Values{"email": {"nobody@example.com"}, "token": {vq.Get("token")}}.Encode(), as: anon, refuses: true},
				{name: "verify with a used link", method: "GET", path: usedVerifyPath, as: anon, refuses: true},
				{name: "forgot page", method: "GET", path: "password/forgot", as: anon},
				{name: "forgot without an address", method: "POST", path: "password/forgot", as: anon, form: f(), refuses: true},
				{name: "forgot with a malformed address", method: "POST", path: "password/forgot", as: anon, form: f("email", "@@"), refuses: true},
				{name: "forgot for an unknown address", method: "POST", path: "password/forgot", as: anon, form: f("email", "unknown@example.com")},
				{name: "forgot without CSRF", method: "POST", path: "password/forgot", as: anon, form: f("email", "owner@example.com"), csrf: "none", refuses: true},
				{name: "reset page without a token", method: "GET", path: "password/reset", as: anon},
				{name: "reset without fields", method: "POST", path: "password/reset", as: anon, form: f(), refuses: true},
				{name: "reset with a made-up token", method: "POST", path: "password/reset", as: anon, form: f("email", "owner@example.com", "token", forgedToken, "password", "a brand new password"), refuses: true},
				{name: "reset with a malformed token", method: "POST", path: "password/reset", as: anon, form: f("email", "owner@example.com", "token", "%%%", "password", "a brand new password"), refuses: true},
				{name: "reset of an unknown address", method: "POST", path: "password/reset", as: anon, form: f("email", "nobody@example.com", "token", forgedToken, "password", "a brand new password"), refuses: true},
				{name: "reset with a short password", method: "POST", path: "password/reset", as: anon, form: f("email", "owner@example.com", "token", forgedToken, "password", "short"), refuses: true},
				{name: "reset with a confirmation token", method: "POST", path: "password/reset", as: anon, form: f("email", "verified@example.com", "token", vq.Get("token"), "password", "a brand new password"), refuses: true},
				{name: "change page signed out", method: "GET", path: "password/change", as: anon, refuses: true},
				{name: "change signed out", method: "POST", path: "password/change", as: anon, form: f("currentPassword", "correct horse battery", "newPassword", "a brand new password"), refuses: true},
				{name: "change without CSRF", method: "POST", path: "password/change", as: owner, form: f("currentPassword", "correct horse battery", "newPassword", "a brand new password"), csrf: "none", refuses: true},
				{name: "change with a wrong password", method: "POST", path: "password/change", as: owner, form: f("currentPassword", "wrong horse battery", "newPassword", "a brand new password"), refuses: true},
				{name: "change without fields", method: "POST", path: "password/change", as: owner, form: f(), refuses: true},
				{name: "change to a short password", method: "POST", path: "password/change", as: owner, form: f("currentPassword", "correct horse battery", "newPassword", "short"), refuses: true},
				{name: "change with no password", method: "POST", path: "password/change", as: plain, form: f("currentPassword", "anything at all", "newPassword", "a brand new password"), refuses: true},
				{name: "an unknown password action", method: "POST", path: "password/nope", as: anon, form: f(), refuses: true},
				// Linked accounts.
				{name: "accounts signed out", method: "GET", path: "accounts", as: anon, refuses: true},
				{name: "unlink signed out", method: "POST", path: "accounts/unlink/dev", as: anon, form: f(), refuses: true},
				{name: "unlink without CSRF", method: "POST", path: "accounts/unlink/dev", as: plain, form: f(), csrf: "none", refuses: true},
				{name: "unlink a provider not linked", method: "POST", path: "accounts/unlink/email", as: plain, form: f(), refuses: true},
				{name: "unlink an unknown provider", method: "POST", path: "accounts/unlink/nope", as: plain, form: f(), refuses: true},
				{name: "unlink the last way in", method: "POST", path: "accounts/unlink/dev", as: plain, form: f(), refuses: true},
				// Sessions.
				{name: "sessions signed out", method: "GET", path: "sessions", as: anon, refuses: true},
				{name: "revoke signed out", method: "POST", path: "sessions/revoke", as: anon, form: f("id", ownersSession), refuses: true},
				{name: "revoke without CSRF", method: "POST", path: "sessions/revoke", as: owner, form: f("id", ownersSession), csrf: "none", refuses: true},
				{name: "revoke another user's session", method: "POST", path: "sessions/revoke", as: plain, form: f("id", ownersSession), refuses: true},
				{name: "revoke a session that does not exist", method: "POST", path: "sessions/revoke", as: plain, form: f("id", strings.Repeat("0", 24)), refuses: true},
				{name: "revoke without an id", method: "POST", path: "sessions/revoke", as: plain, form: f(), refuses: true},
				{name: "revoke-others signed out", method: "POST", path: "sessions/revoke-others", as: anon, form: f(), refuses: true},
				{name: "revoke-others with a wrong CSRF token", method: "POST", path: "sessions/revoke-others", as: owner, form: f(), csrf: "wrong", refuses: true},
				{name: "revoke-all signed out", method: "POST", path: "sessions/revoke-all", as: anon, form: f(), refuses: true},
				{name: "revoke-all without CSRF", method: "POST", path: "sessions/revoke-all", as: owner, form: f(), csrf: "none", refuses: true},
				// E-mail links.
				{name: "a link without an address", method: "POST", path: "signin/email", as: anon, form: f(), refuses: true},
				{name: "a link to a malformed address", method: "POST", path: "signin/email", as: anon, form: f("email", "not an address"), refuses: true},
				{name: "a link without CSRF", method: "POST", path: "signin/email", as: anon, form: f("email", "links@example.com"), csrf: "none", refuses: true},
				{name: "a callback without a token", method: "GET", path: "callback/email", as: anon, refuses: true},
				{name: "a callback with a malformed token", method: "GET", path: "callback/email?email=links%40example.com&token=%25%25", as: anon, refuses: true},
				{name: "a callback with a made-up token", method: "GET", path: "callback/email?" + url.Values{"email": {"links@example.com"}, "token": {forgedToken}}.Encode(), as: anon, refuses: true},
				{name: "a callback with a used link", method: "GET", path: usedEmailPath, as: anon, refuses: true},
			}
			for _, at := range attempts {
				for _, html := range []bool{false, true} {
					resp := at.send(a.app, html)
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					client := "JSON"
					if html {
						client = "page"
					}
					if resp.StatusCode >= 500 {
						t.Errorf("%s (%s): %d %s", at.name, client, resp.StatusCode, body)
						continue
					}
					if at.refuses && !refusal(resp) {
						t.Errorf("%s (%s): %d to %q, want a refusal: %s", at.name, client, resp.StatusCode, resp.Header.Get("Location"), body)
					}
				}
			}

			// None of the mistakes changed anything: both users are
			// signed in, two-factor sign-in is on for the owner with every
			// backup code, the provider is still linked, the owner's
			// password unchanged, no new user.
			if owner.userID(a.app) != ownerID || a.signedIn(plain) != "alice@example.com" {
				t.Fatalf("a session ended: owner %q, plain %q", owner.userID(a.app), a.signedIn(plain))
			}
			if _, st := owner.getJSON(a.app, "/auth/two-factor/setup"); st["enabled"] != true || st["backupCodesLeft"] != float64(len(backups)) {
				t.Fatalf("the owner's two-factor sign-in: %v", st)
			}
			if _, st := plain.getJSON(a.app, "/auth/two-factor/setup"); st["enabled"] != false {
				t.Fatalf("plain's two-factor sign-in: %v", st)
			}
			if _, list := plain.accounts(a.app); len(list) != 1 || list[0]["provider"] != "dev" {
				t.Fatalf("plain's accounts: %v", list)
			}
			if _, list := owner.sessions(a.app); len(list) != 1 {
				t.Fatalf("the owner's sessions: %v", list)
			}
			again := newBrowser(t)
			atCodeStep(t, a.app, again, a.signIn(again, "owner@example.com", "correct horse battery"), "the owner's password")
			for _, addr := range []string{"new@example.com", "unknown@example.com", "nobody@example.com"} {
				if u, err := db.GetUserByEmail(ctx, addr); !errors.Is(err, adapter.ErrNotFound) {
					t.Errorf("a mistake stored the user %+v (%v)", u, err)
				}
			}
		})
	}
}

// TestTwoFactorOnEveryRoute: a user with two-factor sign-in on who signs
// in by e-mail link, by the OpenID provider, by password or by
// credentials stops at the code form with no session, and the session
// appears after a valid code. With password accounts, e-mail links and
// two-factor sign-in all on, an e-mail link to a password user still asks
// for the code. What skips the step on purpose stays as designed: a
// second sign-in of the user the browser is signed in as (with both
// factors) asks for no code, by any route; a browser signed in as another
// user does not pass for that user (its first factor of a user with
// two-factor sign-in on is refused). A passkey with user verification,
// two factors in itself, is TestTwoFactorPasskey's.
func TestTwoFactorOnEveryRoute(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, ms := allFeaturesApp(t, kind, twoUsers, nil)

			// A password user, who also signs in by e-mail link.
			owner := newBrowser(t)
			annCodes, annID := twoFactorPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")

			pw := newBrowser(t)
			secondStep(t, a.app, pw, a.signIn(pw, "ann@example.com", "correct horse battery"), annCodes[0], annID, "password")

			link := newBrowser(t)
			secondStep(t, a.app, link, link.Follow(link.Get(askLink(t, a, ms, link, "ann@example.com"))), annCodes[1], annID, "e-mail link")

			// The provider's alice.
			alice := newBrowser(t)
			alice.signInUser(a.app, "alice")
			_, aliceCodes := enrol(t, a.app, alice)
			aliceID := alice.userID(a.app)
			oidc := newBrowser(t)
			resp, _ := oidc.signInAs(a.app, "dev", "alice")
			secondStep(t, a.app, oidc, resp, aliceCodes[0], aliceID, "OpenID")

			// Signed in with both factors, a second sign-in of the same
			// user asks for no code, by any route.
			if _, body := oidc.signInAs(a.app, "dev", "alice"); body != "hello alice@example.com" || oidc.userID(a.app) != aliceID {
				t.Fatalf("a second OpenID sign-in of the signed-in user: %q as %q", body, oidc.userID(a.app))
			}
			if _, body := pw.FollowBody(a.signIn(pw, "ann@example.com", "correct horse battery")); body != "hello ann@example.com" || pw.userID(a.app) != annID {
				t.Fatalf("a second password sign-in of the signed-in user: %q as %q", body, pw.userID(a.app))
			}
			if body := emailSignIn(t, a, ms, link, "ann@example.com"); body != "hello ann@example.com" || link.userID(a.app) != annID {
				t.Fatalf("a second e-mail link sign-in of the signed-in user: %q as %q", body, link.userID(a.app))
			}

			// Signed in as bob (one factor), a first factor of ann or
			// alice is not a second sign-in of the same user: it is
			// refused as another user's, and bob's browser stays bob's.
			bob := newBrowser(t)
			bob.signInUser(a.app, "bob")
			bobID := bob.userID(a.app)
			refusedAsOther := func(route string, resp *http.Response) {
				t.Helper()
				e := resp.Request.URL.Query().Get("error")
				if e != "AccountLinkMismatch" && e != "OAuthAccountNotLinked" {
					t.Fatalf("signed in as bob, %s ended at %s, want a refusal", route, resp.Request.URL)
				}
				if id := bob.userID(a.app); id != bobID {
					t.Fatalf("signed in as bob, %s left the session of %q (bob %q, ann %q, alice %q)", route, id, bobID, annID, aliceID)
				}
			}
			resp, _ = bob.FollowBody(a.signIn(bob, "ann@example.com", "correct horse battery"))
			refusedAsOther("ann's password", resp)
			resp, _ = bob.FollowBody(bob.Get(askLink(t, a, ms, bob, "ann@example.com")))
			refusedAsOther("ann's e-mail link", resp)
			resp, _ = bob.signInAs(a.app, "dev", "alice")
			refusedAsOther("alice's OpenID sign-in", resp)
		})
	}
	t.Run("credentials", func(t *testing.T) {
		a := newCredsApp(t, func(c *gatehouse.Config, _ *credentials.Config) {
			c.Adapter = openStore(t, "memory").raw
			c.TwoFactor = twofactor.SignIn{}
		})
		owner := newBrowser(t)
		if _, body := owner.FollowBody(a.post(owner, "jane", "correct horse")); body != "hello jane@example.com" {
			t.Fatalf("sign-in: %q", body)
		}
		_, codes := enrol(t, a.app, owner)
		janeID := owner.userID(a.app)
		b := newBrowser(t)
		secondStep(t, a.app, b, b.Follow(a.post(b, "jane", "correct horse")), codes[0], janeID, "credentials")
	})
}

// TestResetKeepsTwoFactor: a password reset of a confirmed user with
// two-factor sign-in on ends every session, and the new password alone
// still makes no session: the next sign-in asks for the code. A reset
// link is not a second factor.
func TestResetKeepsTwoFactor(t *testing.T) {
	for _, kind := range sessionStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
			owner := newBrowser(t)
			codes, annID := twoFactorPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
			phone := newBrowser(t)
			secondStep(t, a.app, phone, a.signIn(phone, "ann@example.com", "correct horse battery"), codes[0], annID, "password")

			thief := newBrowser(t)
			link := resetLink(t, a, thief, "ann@example.com")
			if code, v := resetPassword(t, a, thief, link, "a brand new password"); code != http.StatusOK || v["code"] != "password_reset" {
				t.Fatalf("reset: %d %v", code, v)
			}
			if owner.session(a.app) != nil || phone.session(a.app) != nil || thief.session(a.app) != nil {
				t.Fatal("a session survived the reset, or the reset made one")
			}
			if code, v := jsonOf(t, a.postAs(owner, "two-factor/disable", url.Values{"code": {codes[1]}}, false)); code != http.StatusUnauthorized {
				t.Fatalf("signed out by the reset, turning two-factor sign-in off: %d %v", code, v)
			}

			next := newBrowser(t)
			secondStep(t, a.app, next, a.signIn(next, "ann@example.com", "a brand new password"), codes[1], annID, "the new password")
			if _, st := next.getJSON(a.app, "/auth/two-factor/setup"); st["enabled"] != true || st["backupCodesLeft"] != float64(len(codes)-2) {
				t.Fatalf("two-factor sign-in after the reset: %v", st)
			}
		})
	}
}

// TestConcurrentSignUpConfirmations: 20 browsers opening one sign-up
// confirmation link at once: the token is single use, so exactly one is
// signed in and the others are sent to the error page.
func TestConcurrentSignUpConfirmations(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
			jsonOf(t, a.postAs(newBrowser(t), "password/sign-up", url.Values{"email": {"ivy@example.com"}, "password": {"correct horse battery"}, "callbackUrl": {"/private"}}, false))
			link := a.next(passwordaccount.KindVerify).URL
			const n = 20
			bs := make([]*browser, n)
			for i := range bs {
				bs[i] = newBrowser(t)
			}
			locs := make([]string, n)
			var wg sync.WaitGroup
			for i := range bs {
				wg.Go(func() {
					resp := bs[i].Get(link)
					resp.Body.Close()
					locs[i] = fmt.Sprint(resp.StatusCode, " ", resp.Header.Get("Location"))
				})
			}
			wg.Wait()
			signedIn := 0
			for i, b := range bs {
				switch {
				case a.signedIn(b) == "ivy@example.com":
					signedIn++
				case !strings.Contains(locs[i], "error=Verification"):
					t.Errorf("a refused confirmation answered %s", locs[i])
				}
			}
			if signedIn != 1 {
				t.Fatalf("%d of %d concurrent confirmations signed in, want 1 (%q)", signedIn, n, locs)
			}
		})
	}
}

// TestConcurrentSettingsOneBackupCode: 20 requests at once to turn
// two-factor sign-in off, or to make new backup codes, each with the same
// backup code (a stolen code, replayed): the code is used once, so
// exactly one succeeds and the change is reported once; after new codes,
// the ones shown are the ones that work. With the per-user limit off,
// every request reaches the check.
func TestConcurrentSettingsOneBackupCode(t *testing.T) {
	for _, kind := range attackStores {
		for _, action := range []string{"disable", "backup-codes"} {
			t.Run(kind+"/"+action, func(t *testing.T) {
				t.Parallel()
				want := gatehouse.TwoFactorDisabled
				if action == "backup-codes" {
					want = gatehouse.TwoFactorNewBackup
				}
				var changes atomic.Int32
				a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, func(c *gatehouse.Config) {
					c.TwoFactor = twofactor.SignIn{PerUser: limit.None{}}
					c.Events.TwoFactor = func(_ context.Context, _ profile.User, ch gatehouse.TwoFactorChange) {
						if ch == want {
							changes.Add(1)
						}
					}
				})
				b := newBrowser(t)
				signedIn(t, a.app, b)
				_, codes := enrol(t, a.app, b)
				const n = 20
				form := url.Values{"code": {codes[0]}, "csrfToken": {b.csrf(a.app)}}
				statuses := make([]int, n)
				bodies := make([][]byte, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Go(func() {
						resp := b.Post(a.url+"/auth/two-factor/"+action, form)
						bodies[i], _ = io.ReadAll(resp.Body)
						resp.Body.Close()
						statuses[i] = resp.StatusCode
					})
				}
				wg.Wait()
				ok := 0
				var fresh []string
				for i, s := range statuses {
					switch s {
					case http.StatusOK:
						ok++
						var v struct{ BackupCodes []string }
						_ = json.Unmarshal(bodies[i], &v)
						fresh = v.BackupCodes
					case http.StatusUnauthorized:
					default:
						t.Errorf("%s answered %d %s", action, s, bodies[i])
					}
				}
				if ok != 1 || changes.Load() != 1 {
					t.Fatalf("%d of %d succeeded and %d were reported with one backup code, want 1 and 1 (%v)", ok, n, changes.Load(), statuses)
				}
				_, st := b.getJSON(a.app, "/auth/two-factor/setup")
				if action == "disable" {
					if st["enabled"] != false {
						t.Fatalf("after the disable: %v", st)
					}
					return
				}
				if st["enabled"] != true || len(fresh) == 0 || st["backupCodesLeft"] != float64(len(fresh)) {
					t.Fatalf("after new backup codes: %v, shown %q", st, fresh)
				}
				other := newBrowser(t)
				atCodeStep(t, a.app, other, other.Follow(other.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {other.csrf(a.app)}, "callbackUrl": {"/private"}})), "OpenID")
				if code, _ := other.twoFactor(a.app, "", url.Values{"code": {codes[1]}}); code != http.StatusUnauthorized {
					t.Fatalf("an old backup code after new ones: %d", code)
				}
				if code, _ := other.twoFactor(a.app, "", url.Values{"code": {fresh[0]}}); code != http.StatusSeeOther || other.userID(a.app) != b.userID(a.app) {
					t.Fatalf("a new backup code: %d", code)
				}
			})
		}
	}
}

// TestConcurrentRevokeOneSession: 20 requests at once to revoke the same
// other session: it ends, and it is reported ended once (one 200 with
// revoked 1, the others 404 no_such_session), as when sent one after the
// other; this browser's session is untouched.
func TestConcurrentRevokeOneSession(t *testing.T) {
	for _, kind := range sessionStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
			laptop, phone := newBrowser(t), newBrowser(t)
			signedIn(t, a.app, laptop)
			signedIn(t, a.app, phone)
			var phoneID string
			_, list := laptop.sessions(a.app)
			for _, s := range list {
				if s["current"] != true {
					phoneID = s["id"].(string)
				}
			}
			if len(list) != 2 || phoneID == "" {
				t.Fatalf("sessions: %v", list)
			}
			const n = 20
			form := url.Values{"id": {phoneID}, "csrfToken": {laptop.csrf(a.app)}}
			answers := make([]string, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					resp := laptop.Post(a.url+"/auth/sessions/revoke", form)
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					answers[i] = fmt.Sprint(resp.StatusCode, " ", strings.TrimSpace(string(body)))
				})
			}
			wg.Wait()
			ended := 0
			for _, ans := range answers {
				switch {
				case ans == `200 {"revoked":1}`:
					ended++
				case strings.HasPrefix(ans, "404 ") && strings.Contains(ans, "no_such_session"):
				default:
					t.Errorf("a revoke answered %s", ans)
				}
			}
			if ended != 1 || a.revoked.Load() != 1 {
				t.Fatalf("one session reported ended %d times, RevokeSessions told of %d (%q)", ended, a.revoked.Load(), answers)
			}
			if phone.session(a.app) != nil || laptop.session(a.app) == nil {
				t.Fatal("the wrong session ended")
			}
		})
	}
}

// TestSameAnswerWhateverTheAccount: sign-up and forgot answer byte for
// byte the same, as JSON and as a page, for an unknown address and for
// each kind of known one: a confirmed password user with two-factor
// sign-in on, a sign-up never confirmed, and a user of the OpenID
// provider with no password.
func TestSameAnswerWhateverTheAccount(t *testing.T) {
	a, _, _ := allFeaturesApp(t, "memory", authtest.Options{}, nil)
	owner := newBrowser(t)
	confirmedPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
	enrol(t, a.app, owner)
	jsonOf(t, a.postAs(newBrowser(t), "password/sign-up", url.Values{"email": {"unconfirmed@example.com"}, "password": {"correct horse battery"}}, false))
	signedIn(t, a.app, newBrowser(t)) // alice@example.com, no password

	b := newBrowser(t)
	answer := func(path, addr string, html bool) string { return a.wholeAnswer(b, path, addr, html) }
	for _, path := range []string{"password/sign-up", "password/forgot"} {
		for _, html := range []bool{false, true} {
			unknown := answer(path, "nobody-"+path[9:]+fmt.Sprint(html)+"@example.com", html)
			if !strings.HasPrefix(unknown, "200 OK") {
				t.Errorf("%s (html %v) for an unknown address: %s", path, html, unknown)
			}
			for _, known := range []string{"ann@example.com", "unconfirmed@example.com", "alice@example.com"} {
				if got := answer(path, known, html); got != unknown {
					t.Errorf("%s (html %v) answers %s differently:\n%s\nunknown:\n%s", path, html, known, got, unknown)
				}
			}
		}
	}
}

// TestPasswordSignInAgainWhileSignedIn: a password user signed in who
// signs in again with their own password (to make a fresh session for a
// sensitive setting, or from a second tab) is the same user: signed in,
// not refused as another user. Another password user's password in the
// same browser is still refused, and the session stays as it was.
// Failed before: a password sign-in named no stored user, and any
// signed-in browser refused it as another's (signed_in_as_other_user).
func TestPasswordSignInAgainWhileSignedIn(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
			b := newBrowser(t)
			confirmedPasswordUser(t, a, b, "ann@example.com", "correct horse battery")
			annID := b.userID(a.app)
			confirmedPasswordUser(t, a, newBrowser(t), "cid@example.com", "another good password")

			if resp, body := b.FollowBody(a.signIn(b, "ann@example.com", "correct horse battery")); body != "hello ann@example.com" || b.userID(a.app) != annID {
				t.Fatalf("signing in again as ann: ended at %s, signed in as %q", resp.Request.URL, b.userID(a.app))
			}
			resp, _ := b.FollowBody(a.signIn(b, "cid@example.com", "another good password"))
			wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "signed_in_as_other_user")
			if b.userID(a.app) != annID {
				t.Fatalf("cid's password in ann's browser left the session of %q", b.userID(a.app))
			}
		})
	}
}

// TestConcurrentConfirmOneCode: 20 confirmations of one enrolment at
// once, with the same code (a double click, many tabs): two-factor
// sign-in is turned on once, one answer carries backup codes, the others
// are refused (409 already_enabled or 401), and the codes shown are the
// ones that work.
func TestConcurrentConfirmOneCode(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			var enabled atomic.Int32
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, func(c *gatehouse.Config) {
				c.TwoFactor = twofactor.SignIn{PerUser: limit.None{}}
				c.Events.TwoFactor = func(_ context.Context, _ profile.User, ch gatehouse.TwoFactorChange) {
					if ch == gatehouse.TwoFactorEnabled {
						enabled.Add(1)
					}
				}
			})
			b := newBrowser(t)
			signedIn(t, a.app, b)
			code, e := b.twoFactor(a.app, "enroll", url.Values{})
			secret, _ := e["secret"].(string)
			if code != http.StatusOK || secret == "" {
				t.Fatalf("enroll: %d %v", code, e)
			}
			const n = 20
			form := url.Values{"code": {totp(t, secret, 0)}, "csrfToken": {b.csrf(a.app)}}
			statuses := make([]int, n)
			bodies := make([][]byte, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					resp := b.Post(a.url+"/auth/two-factor/confirm", form)
					bodies[i], _ = io.ReadAll(resp.Body)
					resp.Body.Close()
					statuses[i] = resp.StatusCode
				})
			}
			wg.Wait()
			var codes []string
			ok := 0
			for i, s := range statuses {
				switch s {
				case http.StatusOK:
					ok++
					var v struct{ BackupCodes []string }
					if err := json.Unmarshal(bodies[i], &v); err != nil || len(v.BackupCodes) == 0 {
						t.Fatalf("a confirmation: %s", bodies[i])
					}
					codes = v.BackupCodes
				case http.StatusConflict, http.StatusUnauthorized:
				default:
					t.Errorf("a confirmation answered %d %s", s, bodies[i])
				}
			}
			if ok != 1 || enabled.Load() != 1 {
				t.Fatalf("%d confirmations succeeded, %d reported, want 1 and 1 (%v)", ok, enabled.Load(), statuses)
			}
			other := newBrowser(t)
			secondStep(t, a.app, other, other.Follow(other.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {other.csrf(a.app)}, "callbackUrl": {"/private"}})), codes[0], b.userID(a.app), "OpenID")
		})
	}
}

// TestResetEndsPendingSignIns: someone who had the old password and
// stopped at the code form (a phished password, a code still to come)
// cannot finish once the owner set a new password, by a reset or a
// change: the old password's pending sign-in fails even with a valid
// code, and the owner's new password still works with the next code.
// Failed before: the pending sign-in outlived the new password.
func TestResetEndsPendingSignIns(t *testing.T) {
	for _, kind := range sessionStores {
		for _, how := range []string{"reset", "change"} {
			t.Run(kind+"/"+how, func(t *testing.T) {
				t.Parallel()
				a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
				owner := newBrowser(t)
				codes, annID := twoFactorPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
				thief := newBrowser(t)
				atCodeStep(t, a.app, thief, a.signIn(thief, "ann@example.com", "correct horse battery"), "the old password")

				if how == "reset" {
					link := resetLink(t, a, owner, "ann@example.com")
					if code, v := resetPassword(t, a, owner, link, "a brand new password"); code != http.StatusOK {
						t.Fatalf("reset: %d %v", code, v)
					}
				} else if code, v := jsonOf(t, a.postAs(owner, "password/change", url.Values{"currentPassword": {"correct horse battery"}, "newPassword": {"a brand new password"}}, false)); code != http.StatusOK {
					t.Fatalf("change: %d %v", code, v)
				}
				st, out := thief.twoFactor(a.app, "", url.Values{"code": {codes[0]}})
				if loc, _ := out["location"].(string); st != http.StatusSeeOther || !strings.Contains(loc, "error=TwoFactorFailed") || thief.session(a.app) != nil {
					t.Fatalf("the old password's pending sign-in after the %s: %d %v, session %v", how, st, out, thief.session(a.app))
				}

				next := newBrowser(t)
				secondStep(t, a.app, next, a.signIn(next, "ann@example.com", "a brand new password"), codes[1], annID, "the new password")
			})
		}
	}
}

// TestNewPasswordEndsOtherResetLinks: reset links asked for before a new
// password is set (someone read one in the mailbox, or asked for several)
// stop working once the password is set, by another link or by a change:
// invalid_token, and the password stays the owner's. A link asked for
// afterwards works. Failed before: every link worked until it expired.
func TestNewPasswordEndsOtherResetLinks(t *testing.T) {
	for _, kind := range attackStores {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
			owner := newBrowser(t)
			confirmedPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
			stranger := newBrowser(t)
			askReset := func() url.Values { t.Helper(); return resetLink(t, a, stranger, "ann@example.com") }
			reset := func(link url.Values, pw string) (int, map[string]any) {
				t.Helper()
				return resetPassword(t, a, newBrowser(t), link, pw)
			}
			stolen, mine := askReset(), askReset()
			if code, v := reset(mine, "the owner's new password"); code != http.StatusOK {
				t.Fatalf("the owner's reset: %d %v", code, v)
			}
			if code, v := reset(stolen, "the thief's password"); code != http.StatusBadRequest || v["code"] != "invalid_token" {
				t.Fatalf("a link asked for before the reset: %d %v", code, v)
			}

			stolen = askReset()
			b := newBrowser(t)
			b.FollowBody(a.signIn(b, "ann@example.com", "the owner's new password"))
			if code, v := jsonOf(t, a.postAs(b, "password/change", url.Values{"currentPassword": {"the owner's new password"}, "newPassword": {"changed by the owner"}}, false)); code != http.StatusOK {
				t.Fatalf("change: %d %v", code, v)
			}
			if code, v := reset(stolen, "the thief's password"); code != http.StatusBadRequest || v["code"] != "invalid_token" {
				t.Fatalf("a link asked for before the change: %d %v", code, v)
			}
			c := newBrowser(t)
			if _, body := c.FollowBody(a.signIn(c, "ann@example.com", "changed by the owner")); body != "hello ann@example.com" {
				t.Fatalf("the owner's password stopped working: %q", body)
			}

			if code, v := reset(askReset(), "a later new password"); code != http.StatusOK {
				t.Fatalf("a link asked for after the change: %d %v", code, v)
			}
		})
	}
}

// TestTwoFactorCodeReplayAcrossRoutes: a TOTP code that finished a
// sign-in cannot be replayed to the settings (to turn two-factor sign-in
// off, or to make new backup codes) by whoever saw it, and one the
// settings used cannot finish a sign-in: each code works once, across
// routes.
func TestTwoFactorCodeReplayAcrossRoutes(t *testing.T) {
	for _, kind := range attackStores {
		for _, first := range []string{"sign-in", "settings"} {
			t.Run(kind+"/"+first+" first", func(t *testing.T) {
				t.Parallel()
				a, _, _ := allFeaturesApp(t, kind, authtest.Options{}, nil)
				owner := newBrowser(t)
				signedIn(t, a.app, owner)
				secret, backups := enrol(t, a.app, owner) // used the code of this period
				userID := owner.userID(a.app)
				b := newBrowser(t)
				atCodeStep(t, a.app, b, b.Follow(b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a.app)}, "callbackUrl": {"/private"}})), "OpenID")
				code := totp(t, secret, 1)

				if first == "settings" {
					if st, out := owner.twoFactor(a.app, "backup-codes", url.Values{"code": {code}}); st != http.StatusOK {
						t.Fatalf("new backup codes: %d %v", st, out)
					}
					if st, out := b.twoFactor(a.app, "", url.Values{"code": {code}}); st != http.StatusUnauthorized || b.session(a.app) != nil {
						t.Fatalf("the settings' code replayed to sign in: %d %v", st, out)
					}
					return
				}
				if st, out := b.twoFactor(a.app, "", url.Values{"code": {code}}); st != http.StatusSeeOther || b.userID(a.app) != userID {
					t.Fatalf("the sign-in's code: %d %v", st, out)
				}
				for _, action := range []string{"disable", "backup-codes"} {
					if st, out := b.twoFactor(a.app, action, url.Values{"code": {code}}); st != http.StatusUnauthorized || out["error"] != "invalid_code" {
						t.Fatalf("the sign-in's code replayed to %s: %d %v", action, st, out)
					}
				}
				if _, st := owner.getJSON(a.app, "/auth/two-factor/setup"); st["enabled"] != true || st["backupCodesLeft"] != float64(len(backups)) {
					t.Fatalf("after the replays: %v", st)
				}
			})
		}
	}
}

// Attacks by someone who controls a browser, not a provider:
// they start a sign-in in their own browser and plant its cookies in the
// victim's (cookie tossing), or make the victim's browser finish it.

var attackUsers = authtest.Options{AutoApprove: true, Users: []authtest.User{
	{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
	{Subject: "mallory", Name: "Mallory", Email: "mallory@example.com", EmailVerified: true},
}}

// attackSite is a site with two OpenID providers ("dev" and "other", the
// same in-process provider), a memory adapter and database sessions,
// served on http or, with tls, on https.
type attackSite struct {
	*app
	db  *memory.Adapter
	tls bool
}

func newAttackSite(t *testing.T, tls bool, mutate func(*gatehouse.Config)) *attackSite {
	t.Helper()
	op := newOP(t, attackUsers)
	oidc := func(id string) providers.Provider {
		return providers.OAuthConfig[profile.Claims]{ID: id, Name: id, Type: providers.TypeOIDC,
			Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret}
	}
	db := memory.New()
	a := serveApp(t, op, func(cfg *gatehouse.Config) {
		cfg.Providers = []providers.Provider{oidc("dev"), oidc("other")}
		cfg.Adapter = db
		if mutate != nil {
			mutate(cfg)
		}
	}, tls)
	return &attackSite{app: a, db: db, tls: tls}
}

// browser returns a new browser with its own cookie jar for the site.
func (s *attackSite) browser(t *testing.T) *browser {
	b := newBrowser(t)
	if s.tls {
		b.Client.Transport = s.srv.Client().Transport
	}
	return b
}

// startAs runs a sign-in at provider as the provider user sub up to the
// provider's answer, and returns the callback URL (not visited).
func (b *browser) startAs(a *app, provider, sub string) string {
	b.T.Helper()
	u := a.url + "/auth/signin/" + provider + "?" + url.Values{"login_hint": {sub}}.Encode()
	resp := b.Post(u, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	resp.Body.Close()
	cb := b.Get(resp.Header.Get("Location"))
	cb.Body.Close()
	if cb.StatusCode != http.StatusFound {
		b.T.Fatalf("provider answered %d", cb.StatusCode)
	}
	return cb.Header.Get("Location")
}

// plantChecks copies the attacker's check cookie into the victim's
// browser, as cookie tossing would, and returns its name.
func plantChecks(t *testing.T, a *app, attacker, victim *browser) string {
	t.Helper()
	return plantCookie(t, a, attacker, victim, "gatehouse.checks")
}

// plantCookie copies the attacker's cookie whose name ends in suffix into
// the victim's browser, and returns its name.
func plantCookie(t *testing.T, a *app, attacker, victim *browser, suffix string) string {
	t.Helper()
	u, _ := url.Parse(a.url)
	for _, c := range attacker.Client.Jar.Cookies(u) {
		if strings.HasSuffix(c.Name, suffix) {
			victim.Client.Jar.SetCookies(u, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/"}})
			return c.Name
		}
	}
	t.Fatalf("the attacker's browser holds no cookie named *%s", suffix)
	return ""
}

// TestAttackPlantedCheckCookieLinks: the attacker's provider account must
// never be linked to the signed-in victim by a planted check cookie
// (account takeover); the victim's session stays as it was. Failed before
// the binding: the account was linked and the attacker could then sign in
// as the victim.
func TestAttackPlantedCheckCookieLinks(t *testing.T) {
	for _, tls := range []bool{false, true} {
		for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
			name := "http/" + string(strategy)
			if tls {
				name = "https/" + string(strategy)
			}
			t.Run(name, func(t *testing.T) {
				s := newAttackSite(t, tls, func(c *gatehouse.Config) { c.Session.Strategy = strategy })
				victim := s.browser(t)
				if _, body := victim.signInAs(s.app, "dev", "alice"); body != "hello alice@example.com" {
					t.Fatalf("victim sign-in: %q", body)
				}
				aliceID := victim.userID(s.app)

				cb := s.tossCallback(t, victim, "other", "mallory")

				resp := victim.Follow(victim.Get(cb))
				resp.Body.Close()
				wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "session_mismatch")
				if resp.StatusCode != http.StatusForbidden {
					t.Errorf("error page status %d, want 403", resp.StatusCode)
				}
				s.wantUnchanged(t, victim, aliceID, "other", "mallory")
				// The attacker signing in with that account is not the victim.
				if _, body := s.browser(t).signInAs(s.app, "other", "mallory"); body != "hello mallory@example.com" {
					t.Fatalf("attacker's own sign-in: %q", body)
				}
			})
		}
	}
}

// TestAttackLoginCSRF: a victim who is not signed in but has visited the
// site (a CSRF cookie of their own) is not signed in as the attacker by a
// planted check cookie. Failed before the binding: the victim was signed
// in as the attacker.
func TestAttackLoginCSRF(t *testing.T) {
	for _, tls := range []bool{false, true} {
		t.Run(map[bool]string{false: "http", true: "https"}[tls], func(t *testing.T) {
			s := newAttackSite(t, tls, nil)
			victim := s.browser(t)
			victim.csrf(s.app) // the victim has visited the sign-in page
			cb := s.tossCallback(t, victim, "dev", "mallory")

			resp := victim.Follow(victim.Get(cb))
			resp.Body.Close()
			wantError(t, resp, "error", gatehouse.InvalidCheck, "browser_mismatch")
			if id := victim.userID(s.app); id != "" {
				t.Fatalf("the victim was signed in as %q", id)
			}
		})
	}
}

// TestAttackBindingKeepsLinking: the legitimate link still works: a
// signed-in user who starts a sign-in with another provider in their own
// browser gets that account linked (Auth.js's behaviour, kept under the
// binding).
func TestAttackBindingKeepsLinking(t *testing.T) {
	s := newAttackSite(t, false, nil)
	b := s.browser(t)
	b.signInAs(s.app, "dev", "alice")
	id := b.userID(s.app)
	if _, body := b.signInAs(s.app, "other", "mallory"); body != "hello alice@example.com" {
		t.Fatalf("linking sign-in ended with %q", body)
	}
	u, err := s.db.GetUserByAccount(context.Background(), "other", "mallory")
	if err != nil || u.ID != id {
		t.Fatalf("the account was not linked to the signed-in user: %v %q", err, u.ID)
	}
}

// TestAttackCredentialsNeverLink: signing in with credentials while
// another user is signed in links nothing and leaves the session as it
// was. Failed before: the credentials account was linked to the signed-in
// user.
func TestAttackCredentialsNeverLink(t *testing.T) {
	s := newAttackSite(t, false, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Fields: []credentials.Field{{Name: "username"}, {Name: "password", Type: "password"}},
			Authorize: func(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
				if c["username"] == "mallory" && c["password"] == "pw" {
					return &profile.User{ID: "cred-mallory", Name: "Mallory", Email: "mallory@example.org"}, nil
				}
				return nil, nil
			},
		})
	})
	victim := s.browser(t)
	victim.signInAs(s.app, "dev", "alice")
	aliceID := victim.userID(s.app)
	resp := victim.Follow(victim.Post(s.url+"/auth/callback/credentials",
		url.Values{"username": {"mallory"}, "password": {"pw"}, "csrfToken": {victim.csrf(s.app)}}))

	resp.Body.Close()
	wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "signed_in_as_other_user")
	s.wantUnchanged(t, victim, aliceID, "credentials", "cred-mallory")
	// Signed out, the same credentials sign in as their own user.
	other := s.browser(t)
	resp = other.Follow(other.Post(s.url+"/auth/callback/credentials",
		url.Values{"username": {"mallory"}, "password": {"pw"}, "csrfToken": {other.csrf(s.app)}}))

	resp.Body.Close()
	if id := other.userID(s.app); id == "" || id == aliceID {
		t.Fatalf("credentials sign-in gave user %q", id)
	}
}

// crossSitePost posts form from the browser b as a page of another site
// would make it: Sec-Fetch-Site cross-site and a foreign Origin.
func (b *browser) crossSitePost(u string, form url.Values) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	return b.Do(req)
}

// plantCSRF gives the victim's browser the attacker's CSRF cookie and
// returns the matching token, as cookie tossing on plain http can.
func plantCSRF(t *testing.T, a *app, attacker, victim *browser) string {
	t.Helper()
	token := attacker.csrf(a)
	plantCookie(t, a, attacker, victim, "authjs.csrf-token")
	return token
}

// TestAttackCrossSitePosts: with a planted CSRF pair, a cross-site POST to
// the credentials callback, sign-in, sign-out or session update is
// refused (403, MissingCSRF cross_site) before anything is read or
// called. Failed before the same-origin check: the credentials POST
// signed the victim's browser in (and, signed in, linked the account).
func TestAttackCrossSitePosts(t *testing.T) {
	var calls int
	s := newAttackSite(t, false, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Fields: []credentials.Field{{Name: "username"}, {Name: "password", Type: "password"}},
			Authorize: func(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
				calls++
				return &profile.User{ID: "cred-" + c["username"], Email: c["username"] + "@example.org"}, nil
			},
		})
	})
	victim := s.browser(t)
	victim.signInAs(s.app, "dev", "alice")
	aliceID := victim.userID(s.app)
	token := plantCSRF(t, s.app, s.browser(t), victim)

	for _, route := range []string{"/auth/callback/credentials", "/auth/signin/dev", "/auth/signout"} {
		resp := victim.crossSitePost(s.url+route, url.Values{"username": {"mallory"}, "password": {"x"}, "csrfToken": {token}})
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "MissingCSRF" || loc.Query().Get("code") != "cross_site" {
			t.Errorf("cross-site POST %s answered %d to %q, want MissingCSRF (cross_site)", route, resp.StatusCode, loc)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, s.url+"/auth/session", strings.NewReader(`{"csrfToken":"`+token+`","data":{"name":"x"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp := victim.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site session update answered %d, want 403", resp.StatusCode)
	}
	if calls != 0 {
		t.Fatalf("Authorize was called %d times", calls)
	}
	if got := victim.userID(s.app); got != aliceID {
		t.Fatalf("the victim's session changed to %q", got)
	}
	// The same POSTs from the site's own pages still work.
	resp = victim.Follow(victim.Post(s.url+"/auth/signout", url.Values{"csrfToken": {victim.csrf(s.app)}}))
	resp.Body.Close()
	if victim.userID(s.app) != "" {
		t.Fatal("a same-origin sign-out did not sign out")
	}
}

// TestDuplicateCookieReadsAsNone: a request carrying two session cookies
// (one planted with a wider Domain or Path) is treated as carrying none,
// and the log names the cookie, never its values. Failed before: the
// first one was used.
func TestDuplicateCookieReadsAsNone(t *testing.T) {
	var logs strings.Builder
	s := newAttackSite(t, false, func(c *gatehouse.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	b := s.browser(t)
	b.signInAs(s.app, "dev", "alice")
	session := b.cookie(s.app, "authjs.session-token")
	req, _ := http.NewRequest(http.MethodGet, s.url+"/auth/session", nil)
	req.Header.Set("Cookie", "authjs.session-token="+session+"; authjs.session-token=planted")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.TrimSpace(string(body)) != "null" {
		t.Fatalf("a doubled session cookie read as %s", body)
	}
	if !strings.Contains(logs.String(), "two cookies named authjs.session-token") || strings.Contains(logs.String(), session) {
		t.Fatalf("log: %s", logs.String())
	}
}

// TestCookieSetOnce: every route answers each cookie at most once. Failed
// before: GET {base}/csrf through the Middleware set two different CSRF
// cookies.
func TestCookieSetOnce(t *testing.T) {
	s := newAttackSite(t, false, nil)
	b := s.browser(t)
	check := func(what string, resp *http.Response) {
		t.Helper()
		resp.Body.Close()
		seen := map[string]bool{}
		for _, c := range resp.Cookies() {
			if seen[c.Name] {
				t.Errorf("%s set cookie %s twice", what, c.Name)
			}
			seen[c.Name] = true
		}
	}
	check("GET csrf", b.Get(s.url+"/auth/csrf"))
	b2 := s.browser(t)
	check("GET signin", b2.Get(s.url+"/auth/signin"))
	check("GET session", s.browser(t).Get(s.url+"/auth/session"))
	check("GET providers", s.browser(t).Get(s.url+"/auth/providers"))
	check("GET signout", s.browser(t).Get(s.url+"/auth/signout"))
	resp := b.Post(s.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(s.app)}, "callbackUrl": {"/private"}})
	check("POST signin", resp)
	cb := b.Get(resp.Header.Get("Location"))
	cb.Body.Close()
	check("callback", b.Get(cb.Header.Get("Location")))
	check("POST signout", b.Post(s.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(s.app)}}))
}

// TestLogsCutRequestValues: a 1 MB provider id in the path does not reach
// the log whole: every line stays short. Failed before: the id was
// logged twice, whole.
func TestLogsCutRequestValues(t *testing.T) {
	var logs strings.Builder
	s := newAttackSite(t, false, func(c *gatehouse.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	id := strings.Repeat("x", 1<<20)
	req := httptest.NewRequest(http.MethodGet, s.url+"/auth/callback/"+id, nil)
	s.h.ServeHTTP(httptest.NewRecorder(), req)
	if logs.Len() == 0 {
		t.Fatal("nothing was logged")
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 2048 {
			t.Fatalf("a log line of %d bytes: %.200s…", len(line), line)
		}
	}
	if !strings.Contains(logs.String(), "…(10485") {
		t.Fatalf("the cut value does not say its length: %s", logs.String())
	}
}

// countingReader is an endless body that counts what was read of it.
type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	c.n += len(p)
	if c.n > 10<<20 {
		return len(p), io.EOF
	}
	return len(p), nil
}

// TestLargeBodiesAreNotRead: a 10 MB form sent to the sign-in,
// credentials and sign-out routes is refused after at most 64 KiB.
func TestLargeBodiesAreNotRead(t *testing.T) {
	s := newAttackSite(t, false, nil)
	for _, route := range []string{"/auth/signin/dev", "/auth/signout", "/auth/session", "/auth/backchannel-logout/dev"} {
		body := &countingReader{}
		req := httptest.NewRequest(http.MethodPost, s.url+route, body)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		if body.n > 80<<10 {
			t.Errorf("%s read %d bytes of a 10 MB body", route, body.n)
		}
		if rec.Code < 300 {
			t.Errorf("%s answered %d to a 10 MB body", route, rec.Code)
		}
	}
}

// TestAttackEmailLinkIntoSignedInBrowser: an attacker asks for a sign-in
// link for their own address and gets the signed-in victim to open it:
// nothing is linked and the victim's session stays (AccountLinkMismatch).
// Opened by the attacker, signed out, it signs in as usual. Failed
// before: the victim's session was replaced by the attacker's user.
func TestAttackEmailLinkIntoSignedInBrowser(t *testing.T) {
	m := newMailApp(t, nil) // email_test.go: dev provider, memory adapter, database sessions
	victim := newBrowser(t)
	victim.signIn(m.app, "dev", "/")
	before := victim.userID(m.app)
	attacker := newBrowser(t)
	m.requestLink(attacker, "mallory@example.com", "/private").Body.Close()
	link := m.receive().Link()

	resp := victim.Follow(victim.Get(link))
	resp.Body.Close()
	wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "signed_in_as_other_user")
	if got := victim.userID(m.app); got != before || got == "" {
		t.Fatalf("the victim's session changed: %q, want %q", got, before)
	}
	if _, err := m.db.GetUserByEmail(context.Background(), "mallory@example.com"); err == nil {
		t.Fatal("the refused link created the attacker's user")
	}
	// A fresh link opened signed out signs in.
	m.requestLink(attacker, "mallory@example.com", "/private").Body.Close()
	if _, body := attacker.FollowBody(attacker.Get(m.receive().Link())); body != "hello mallory@example.com" {
		t.Fatalf("the attacker's own link: %q", body)
	}
}

// TestAttackBindingSurvivesRollingJWT: a JWT session whose cookie is
// re-sealed between the start of a sign-in and its callback (UpdateAge
// passed: a new exp, a new JWE) is still the session that started it,
// because the binding digests the token's jti and subject, not the
// cookie: the legitimate link happens. Failed with a digest of the raw
// cookie: AccountLinkMismatch (session_mismatch).
func TestAttackBindingSurvivesRollingJWT(t *testing.T) {
	s := newAttackSite(t, false, func(c *gatehouse.Config) {
		c.Session.Strategy = gatehouse.StrategyJWT
		c.Session.UpdateAge = time.Nanosecond // every read re-seals the cookie
	})
	b := s.browser(t)
	b.signInAs(s.app, "dev", "alice")
	aliceID := b.userID(s.app)
	cb := b.startAs(s.app, "other", "mallory")
	started := b.cookie(s.app, sessionCookie)
	b.Get(s.url + "/auth/session").Body.Close()
	if now := b.cookie(s.app, sessionCookie); now == "" || now == started {
		t.Fatal("the session cookie was not re-sealed between start and callback")
	}

	resp := b.Follow(b.Get(cb))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello alice@example.com" {
		t.Fatalf("the linking sign-in ended on %s with %.60q", resp.Request.URL, body)
	}
	if u, err := s.db.GetUserByAccount(context.Background(), "other", "mallory"); err != nil || u.ID != aliceID {
		t.Fatalf("the account was not linked to the signed-in user: %v %q", err, u.ID)
	}
	if got := b.userID(s.app); got != aliceID {
		t.Fatalf("the session is user %q, want %q", got, aliceID)
	}
}

// TestAttackPlantedCheckCookieSameSitePost: the planted-cookie takeover
// sent as a same-site POST to the callback (a page on a sibling
// subdomain submitting the attacker's code and state as a form) is
// refused like the GET: such a POST carries the victim's cookies, so the
// binding is compared. Only a cross-site POST (a provider's form_post),
// which carries no session and no CSRF cookie, goes without it. Failed
// before: every POST callback skipped the binding, and the attacker's
// account was linked to the victim.
func TestAttackPlantedCheckCookieSameSitePost(t *testing.T) {
	s := newAttackSite(t, false, nil)
	victim := s.browser(t)
	victim.signInAs(s.app, "dev", "alice")
	aliceID := victim.userID(s.app)
	cb := s.tossCallback(t, victim, "other", "mallory")

	u, _ := url.Parse(cb)
	req, _ := http.NewRequest(http.MethodPost, s.url+u.Path, strings.NewReader(u.RawQuery))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-site")
	resp := victim.Follow(victim.Do(req))
	resp.Body.Close()
	wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "session_mismatch")
	s.wantUnchanged(t, victim, aliceID, "other", "mallory")
}

// The hostile provider, part two: the positive relying-party cases of the
// OpenID Foundation's conformance suite, key rotation, the JWKS refetch
// budget, and provider faults on every outbound call (slow-loris answers,
// 5xx, huge bodies, malformed JSON, discovery down at start-up), of which
// the log keeps the status, not the body.

// interceptor sits in front of an authtest provider and answers the
// requests for which a fault is set, by endpoint path suffix ("/token",
// "/userinfo", "/jwks", "/.well-known/openid-configuration").
type interceptor struct {
	mu     sync.Mutex
	faults map[string]http.HandlerFunc
}

func (ic *interceptor) set(suffix string, h http.HandlerFunc) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if ic.faults == nil {
		ic.faults = map[string]http.HandlerFunc{}
	}
	if h == nil {
		delete(ic.faults, suffix)
		return
	}
	ic.faults[suffix] = h
}

func (ic *interceptor) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ic.mu.Lock()
		var h http.HandlerFunc
		for suffix, f := range ic.faults {
			if strings.HasSuffix(r.URL.Path, suffix) {
				h = f
			}
		}
		ic.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// newHostileServer starts an authtest provider behind ic.
func newHostileServer(t *testing.T, opts authtest.Options, ic *interceptor) *authtest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opts.Issuer = "http://" + ts.Listener.Addr().String()
	opts.AutoApprove = true
	p, err := authtest.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = ic.wrap(p)
	ts.Start()
	t.Cleanup(ts.Close)
	return &authtest.Server{Server: ts, Provider: p}
}

// trickle answers 200 and then one byte of a JSON body every interval,
// until the client gives up (a slow-loris answer).
func trickle(interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		body := `{"access_token":"` + strings.Repeat("a", 1000)
		for i := 0; i < len(body); i++ {
			if _, err := w.Write([]byte{body[i]}); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(interval):
			case <-r.Context().Done():
				return
			}
		}
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "unavailable", code) }
}

func jsonBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// huge answers a JSON body of 3 MiB without a Content-Length.
func huge(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"keys":[],"access_token":"x","sub":"alice","pad":"`))
	chunk := []byte(strings.Repeat("x", 64<<10))
	for range 48 {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	w.Write([]byte(`"}`))
}

// expectFailure checks that a sign-in ended on the error page with errType
// (and code, when not empty), without a session.
func expectFailure(t *testing.T, a *app, b *browser, resp *http.Response, errType gatehouse.ErrorType, code string) {
	t.Helper()
	u := resp.Request.URL
	if u.Path != "/auth/error" || u.Query().Get("error") != string(errType) {
		t.Fatalf("ended on %s (status %d), want /auth/error?error=%s (hops %v)", u, resp.StatusCode, errType, b.Hops)
	}
	if code != "" && u.Query().Get("code") != code {
		t.Fatalf("code = %q, want %q (%s)", u.Query().Get("code"), code, u)
	}
	if resp.StatusCode == http.StatusInternalServerError {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if s := b.session(a); s != nil {
		t.Fatalf("a session after a failure: %v", s)
	}
}

func expectSignedIn(t *testing.T, a *app, b *browser, resp *http.Response, body string) {
	t.Helper()
	if resp.Request.URL.Path != "/private" || body != "hello alice@example.com" {
		t.Fatalf("landed on %s with %q (hops %v)", resp.Request.URL, body, b.Hops)
	}
}

func count(op *authtest.Server, ep authtest.Endpoint) int {
	n := 0
	for _, r := range op.Requests() {
		if r.Endpoint == ep {
			n++
		}
	}
	return n
}

// TestConformancePositive: the OpenID Foundation RP tests whose expected
// outcome is a successful sign-in (Basic and Config profiles).
func TestConformancePositive(t *testing.T) {
	cases := []struct {
		name   string
		opts   authtest.Options
		faults authtest.Faults
		check  func(t *testing.T, op *authtest.Server)
	}{
		{name: "rp-response_type-code", check: func(t *testing.T, op *authtest.Server) {
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointAuthorize && r.Query.Get("response_type") != "code" {
					t.Fatalf("response_type = %q", r.Query.Get("response_type"))
				}
			}
		}},
		{name: "rp-id_token-sig-rs256", opts: authtest.Options{Alg: "RS256"}},
		{name: "rp-id_token-sig-es256", opts: authtest.Options{Alg: "ES256"}},
		{name: "rp-id_token-kid-absent-single-jwks", faults: authtest.Faults{IDTokenOmitKID: true}},
		// The suite accepts either outcome here; Gatehouse tries every key.
		{name: "rp-id_token-kid-absent-multiple-jwks (right key)", faults: authtest.Faults{IDTokenOmitKID: true, JWKSExtraKeys: 2}},
		{name: "rp-discovery-openid-configuration", check: func(t *testing.T, op *authtest.Server) {
			if count(op, authtest.EndpointDiscovery) != 1 {
				t.Fatalf("discovery fetched %d times, want 1", count(op, authtest.EndpointDiscovery))
			}
		}},
		{name: "rp-discovery-jwks_uri-keys", check: func(t *testing.T, op *authtest.Server) {
			if count(op, authtest.EndpointJWKS) != 1 {
				t.Fatalf("JWKS fetched %d times, want 1", count(op, authtest.EndpointJWKS))
			}
		}},
		{name: "rp-token_endpoint-client_secret_basic", check: func(t *testing.T, op *authtest.Server) {
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointToken && r.ClientAuth != "client_secret_basic" {
					t.Fatalf("client authentication %q", r.ClientAuth)
				}
			}
		}},
		{name: "rp-userinfo-bearer-header", check: func(t *testing.T, op *authtest.Server) {
			seen := false
			for _, r := range op.Requests() {
				if r.Endpoint == authtest.EndpointUserinfo {
					seen = true
					if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.Query.Has("access_token") || r.Form.Has("access_token") {
						t.Fatalf("userinfo request: header %q, query %v", r.Header.Get("Authorization"), r.Query)
					}
				}
			}
			if !seen {
				t.Fatal("no userinfo request")
			}
		}},
		{name: "rp-scope-userinfo-claims", opts: authtest.Options{Users: []authtest.User{{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b, resp, body := signInWithFaults(t, tc.opts, tc.faults)
			expectSignedIn(t, a, b, resp, body)
			if tc.check != nil {
				tc.check(t, a.op)
			}
		})
	}
}

// TestKeyRotation: rp-key-rotation-op-sign-key. The provider rotates its
// signing key; the next ID token names a kid the cache lacks, the JWKS is
// fetched once more, and the sign-in succeeds.
func TestKeyRotation(t *testing.T) {
	for _, alg := range []string{"RS256", "ES256"} {
		t.Run(alg, func(t *testing.T) {
			t.Parallel()
			a := newApp(t, authtest.Options{Alg: alg}, nil)
			resp, body := newBrowser(t).signIn(a, "dev", "/private")
			expectSignedIn(t, a, newBrowser(t), resp, body)
			before := count(a.op, authtest.EndpointJWKS)
			a.op.RotateKey()
			b := newBrowser(t)
			resp, body = b.signIn(a, "dev", "/private")
			expectSignedIn(t, a, b, resp, body)
			if got := count(a.op, authtest.EndpointJWKS) - before; got != 1 {
				t.Fatalf("JWKS fetched %d more times after a rotation, want 1", got)
			}
			// A third sign-in uses the cached new key.
			resp, body = newBrowser(t).signIn(a, "dev", "/private")
			expectSignedIn(t, a, b, resp, body)
			if got := count(a.op, authtest.EndpointJWKS) - before; got != 1 {
				t.Fatalf("JWKS fetched %d times for a known key", got)
			}
		})
	}
}

// TestJWKSRefetchBudget: tokens naming unknown keys do not make the
// relying party hammer the JWKS endpoint. Twelve sign-ins with an unknown
// kid fail, and the JWKS is fetched at most 1 + 3 (the refetch burst)
// times. Without the budget it is fetched once per token (go-oidc).
func TestJWKSRefetchBudget(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	a.op.SetFaults(authtest.Faults{IDTokenUnknownKID: true})
	start := time.Now()
	for range 12 {
		b := newBrowser(t)
		resp, _ := b.signIn(a, "dev", "/private")
		expectFailure(t, a, b, resp, gatehouse.InvalidIDToken, "signature")
	}
	if n, most := count(a.op, authtest.EndpointJWKS), budgetFetches(start); n > most {
		t.Fatalf("JWKS fetched %d times for 12 tokens with unknown kids, want at most %d", n, most)
	}
}

// TestProviderFaults: every outbound call (discovery, JWKS, token,
// userinfo) survives a slow-loris answer (one byte per second, cut off at
// Config.ProviderTimeout), a 5xx, a body larger than the read limit and
// malformed JSON, with a specific error and no session.
func TestProviderFaults(t *testing.T) {
	const timeout = 1500 * time.Millisecond
	endpoints := []struct {
		suffix  string
		errType gatehouse.ErrorType
		slow    string // the code for a timeout
	}{
		{"/.well-known/openid-configuration", gatehouse.ProviderUnavailable, "discovery"},
		{"/jwks", gatehouse.InvalidIDToken, "jwks"},
		{"/token", gatehouse.TokenExchangeFailed, "timeout"},
		{"/userinfo", gatehouse.UserinfoFailed, "timeout"},
	}
	faults := []struct {
		name string
		h    http.HandlerFunc
		code func(suffix string) string
	}{
		{"slow-loris", trickle(time.Second), nil},
		{"503", status(http.StatusServiceUnavailable), func(s string) string {
			switch s {
			case "/token", "/userinfo":
				return "http_503"
			}
			return ""
		}},
		{"huge", huge, func(string) string { return "" }},
		{"malformed-json", jsonBody(`{"issuer": "x", "keys": [}`), func(string) string { return "" }},
	}
	for _, ep := range endpoints {
		for _, f := range faults {
			t.Run(strings.Trim(ep.suffix, "/.")+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				ic := &interceptor{}
				ic.set(ep.suffix, f.h)
				op := newHostileServer(t, authtest.Options{}, ic)
				// The app starts whatever the provider does: discovery is
				// lazy.
				a := startApp(t, op, func(c *gatehouse.Config) {
					c.HTTPClient = nil
					c.ProviderTimeout = timeout
				})
				b := newBrowser(t)
				start := time.Now()
				var resp *http.Response
				if ep.suffix == "/.well-known/openid-configuration" {
					// Sign-in itself needs discovery: the POST fails at once.
					resp = b.Follow(b.Post(a.url+"/auth/signin/dev", map[string][]string{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}}))
				} else {
					resp, _ = b.signIn(a, "dev", "/private")
				}
				code := ep.slow
				if f.code != nil {
					code = f.code(ep.suffix)
				}
				expectFailure(t, a, b, resp, ep.errType, code)
				if el := time.Since(start); el > timeout+3*time.Second {
					t.Fatalf("took %s with a %s timeout", el, timeout)
				}
			})
		}
	}
}

// TestProviderBodiesNotLogged: a failing userinfo endpoint whose answer
// carries profile data is logged with its status, content type and size
// only. Failed before: 200 characters of the body reached the log.
func TestProviderBodiesNotLogged(t *testing.T) {
	const secretProfile = `{"error":"boom","email":"carol.private@example.com","phone":"+1 555 0100"}`
	userinfo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(secretProfile))
	}))
	t.Cleanup(userinfo.Close)
	var logs syncBuffer // email_test.go
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		withDev(func(p *providers.OAuthConfig[profile.Claims]) {
			p.Userinfo = providers.UserinfoEndpoint[profile.Claims]{URL: userinfo.URL + "/me"}
		})(c)
	})
	resp, _ := newBrowser(t).signIn(a, "dev", "/")
	if got := resp.Request.URL.Query().Get("error"); got != string(gatehouse.UserinfoFailed) {
		t.Fatalf("ended on %s, want UserinfoFailed", resp.Request.URL)
	}
	out := logs.String()
	if strings.Contains(out, "carol.private") || strings.Contains(out, "555 0100") {
		t.Fatalf("the provider's answer reached the log:\n%s", out)
	}
	if !strings.Contains(out, "500") || !strings.Contains(out, "application/json") || !strings.Contains(out, "bytes") {
		t.Fatalf("the log does not say status, content type and size:\n%s", out)
	}
}

// TestDiscoveryDownAtStartUp: the provider's discovery is unreachable
// when the app starts. New succeeds, sign-in fails cleanly with
// ProviderUnavailable (without contacting the provider more than once per
// retry period), and once the provider is back sign-in works.
func TestDiscoveryDownAtStartUp(t *testing.T) {
	t.Parallel()
	ic := &interceptor{}
	ic.set("/.well-known/openid-configuration", status(http.StatusBadGateway))
	op := newHostileServer(t, authtest.Options{}, ic)
	a := startApp(t, op, nil)
	for range 3 {
		b := newBrowser(t)
		resp := b.Follow(b.Post(a.url+"/auth/signin/dev", map[string][]string{"csrfToken": {b.csrf(a)}}))
		expectFailure(t, a, b, resp, gatehouse.ProviderUnavailable, "discovery")
	}
	if n := count(op, authtest.EndpointDiscovery); n > 0 {
		// The interceptor answered: the provider never saw them.
		t.Fatalf("provider saw %d discovery requests", n)
	}
	ic.set("/.well-known/openid-configuration", nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b := newBrowser(t)
		resp, body := b.signIn(a, "dev", "/private")
		if resp.Request.URL.Path == "/private" {
			expectSignedIn(t, a, b, resp, body)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still failing after the provider came back: %s", resp.Request.URL)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// hs256Token forwards the token request to the provider and re-signs the
// ID token of its answer with HS256 under key, as LINE signs them.
func hs256Token(t *testing.T, op func() http.Handler, key []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		op().ServeHTTP(rec, r)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body["id_token"] == nil {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		parsed, err := josejwt.ParseSigned(body["id_token"].(string), []jose.SignatureAlgorithm{jose.RS256})
		if err != nil {
			t.Error(err)
			return
		}
		var claims map[string]any
		parsed.UnsafeClaimsWithoutVerification(&claims)
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: key}, nil)
		if err != nil {
			t.Error(err)
			return
		}
		if body["id_token"], err = josejwt.Signed(signer).Claims(claims).Serialize(); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	}
}

// TestHS256Pinned: a provider that pins HS256 (LINE) signs in with ID
// tokens keyed with the client secret (OpenID Connect Core §10.1); the
// same token is refused when the provider does not pin it, and a token
// keyed with anything else is refused when it does.
func TestHS256Pinned(t *testing.T) {
	const lineSecret = "0123456789abcdef0123456789abcdef" // a LINE channel secret: 32 hex digits
	for _, tc := range []struct {
		name   string
		pin    bool
		key    string
		signIn bool
	}{
		{"pinned, client secret", true, lineSecret, true},
		{"not pinned", false, lineSecret, false},
		{"pinned, other key", true, "another-secret-another-secret-another-secret", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ic := &interceptor{}
			var op *authtest.Server
			ic.set("/token", hs256Token(t, func() http.Handler { return op.Provider }, []byte(tc.key)))
			op = newHostileServer(t, authtest.Options{ClientSecret: lineSecret}, ic)
			a := startApp(t, op, func(c *gatehouse.Config) {
				p := c.Providers[0].(providers.OAuthConfig[profile.Claims])
				p.ClientSecret = lineSecret
				if tc.pin {
					p.Client.IDTokenSignedResponseAlg = "HS256"
				}
				c.Providers[0] = p
			})
			b := newBrowser(t)
			resp, body := b.signIn(a, "dev", "/private")
			if tc.signIn {
				expectSignedIn(t, a, b, resp, body)
			} else {
				expectFailure(t, a, b, resp, gatehouse.InvalidIDToken, "")
			}
		})
	}
}

// budgetFetches is the most JWKS fetches the refetch budget allows since
// start: the first fetch, a burst of 3, then one per 10 seconds (a slow
// machine may take that long).
func budgetFetches(start time.Time) int {
	return 1 + 3 + int(time.Since(start)/(10*time.Second))
}

// guessConcurrently sends n wrong passwords for jane at once, spread over
// the apps, each from its own browser.
func guessConcurrently(t *testing.T, n int, apps ...*credsApp) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		a := apps[i%len(apps)]
		b := newBrowser(t)
		csrf := b.csrf(a.app)
		wg.Go(func() {
			resp := b.Post(a.url+"/auth/callback/credentials", url.Values{
				"csrfToken": {csrf}, "username": {"jane"}, "password": {"wrong"}})

			resp.Body.Close()
		})
	}
	wg.Wait()
}

// slowHash makes Authorize take as long as a password hash does, which is
// the window a check-then-count limiter leaves open.
func slowHash(cc *credentials.Config) {
	check := cc.Authorize
	cc.Authorize = func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
		time.Sleep(30 * time.Millisecond)
		return check(ctx, c, r)
	}
}

// TestAttackConcurrentGuessesMemory: 100 concurrent wrong passwords for
// one identifier reach Authorize at most 5 times (the default limit).
// Failed before reserving: all 100 reached it.
func TestAttackConcurrentGuessesMemory(t *testing.T) {
	a := newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) { slowHash(cc) })
	guessConcurrently(t, 100, a)
	if n := a.calls.Load(); n > credentials.DefaultPerIdentifierAndIP {
		t.Fatalf("Authorize ran %d times for 100 concurrent guesses, want at most %d", n, credentials.DefaultPerIdentifierAndIP)
	}
	t.Logf("Authorize ran %d times for 100 concurrent guesses", a.calls.Load())
}

// TestAttackConcurrentGuessesRedis: the same across two handler instances
// sharing Redis limiters: at most 5 in all.
func TestAttackConcurrentGuessesRedis(t *testing.T) {
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	c := redistest.NewClient(t) // below
	t.Cleanup(func() {
		ctx := context.Background()
		if keys, _ := c.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			c.Del(ctx, keys...)
		}
	})
	instance := func() *credsApp {
		rdb := redistest.NewClient(t)
		return newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) {
			slowHash(cc)
			cc.PerIP = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIP, Window: time.Hour, Prefix: prefix + "ip:"}
			cc.PerIdentifierAndIP = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifierAndIP, Window: time.Hour, Prefix: prefix + "idip:"}
			cc.PerIdentifier = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifier, Window: time.Hour, Prefix: prefix + "id:"}
		})
	}
	one, two := instance(), instance()
	guessConcurrently(t, 100, one, two)
	if n := one.calls.Load() + two.calls.Load(); n > credentials.DefaultPerIdentifierAndIP {
		t.Fatalf("Authorize ran %d times for 100 concurrent guesses on two instances, want at most %d", n, credentials.DefaultPerIdentifierAndIP)
	}
	t.Logf("Authorize ran %d+%d times for 100 concurrent guesses on two instances", one.calls.Load(), two.calls.Load())
}

// TestAttackLockoutFromAnotherAddress: an attacker who exhausts the
// attempts for jane from one address does not lock jane out from hers
// (ASVS 2.2.1). Failed before: the per-identifier lockout held everywhere.
func TestAttackLockoutFromAnotherAddress(t *testing.T) {
	a := newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) {
		cc.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-Client") }
	})
	post := func(ip, pass string) *http.Response {
		b := newBrowser(t)
		form := url.Values{"csrfToken": {b.csrf(a.app)}, "username": {"jane"}, "password": {pass}}
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/credentials", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Test-Client", ip)
		resp := b.Do(req)
		resp.Body.Close()
		return resp
	}
	for range 10 {
		post("198.51.100.7", "wrong")
	}
	if resp := post("198.51.100.7", "correct horse"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the attacker's address answered %d, want 429", resp.StatusCode)
	}
	if resp := post("203.0.113.9", "correct horse"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/private" && resp.Header.Get("Location") != a.url+"/private" && resp.Header.Get("Location") != a.url+"/" {
		t.Fatalf("the real user, on another address, answered %d to %q: locked out", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestAttackEmailLimitVariants: +tags, case and Unicode forms of one
// address share its send limit. Failed before: each variant had its own.
func TestAttackEmailLimitVariants(t *testing.T) {
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.PerIdentifier = limit.NewMemory(2, time.Hour)
		e.PerIP = limit.NewMemory(100, time.Hour)
	})
	b := newBrowser(t)
	sent := 0
	for _, addr := range []string{"victim@example.com", "victim+1@example.com", "VICTIM+2@example.com", "ｖｉｃｔｉｍ+3@example.com", "victim+4@Example.COM"} {
		resp := m.requestLink(b, addr, "/")
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			sent++
		}
	}
	if sent != 2 || len(m.mail.Messages()) != 2 {
		t.Fatalf("%d requests accepted, %d mails sent for variants of one address, want 2", sent, len(m.mail.Messages()))
	}
}

// TestAttackSignInFlood: sign-in starts, callbacks and passkey options
// from one address past Config.RateLimit answer 429 with Retry-After.
// Failed before: there was no such limit.
func TestAttackSignInFlood(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.RateLimit = limit.NewMemory(3, time.Minute) })
	b := newBrowser(t)
	csrf := b.csrf(a)
	var last *http.Response
	for range 4 {
		last = b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {csrf}})
		last.Body.Close()
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("4th sign-in start: %d, Retry-After %q; want 429 with Retry-After", last.StatusCode, last.Header.Get("Retry-After"))
	}
	if resp := b.Get(a.url + "/auth/callback/dev?code=x&state=y"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("callback past the limit: %d", resp.StatusCode)
	}
}

// TestRateLimiterErrorRefuses: a limiter that fails refuses (fail closed).
func TestRateLimiterErrorRefuses(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.RateLimit = brokenLimiter{} })
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("with a failing limiter the sign-in start answered %d", resp.StatusCode)
	}
}

type brokenLimiter struct{}

func (brokenLimiter) Reserve(context.Context, string) (time.Duration, error) {
	return 0, errors.New("store down")
}
func (brokenLimiter) Release(context.Context, string) error { return errors.New("store down") }
func (brokenLimiter) Reset(context.Context, string) error   { return errors.New("store down") }

// TestCredentialsLockoutSharedThroughRedis: two Gatehouse handlers (two
// processes, each with its own Redis connection) share the attempt
// limits: failures on one lock the account out on the other.
func TestCredentialsLockoutSharedThroughRedis(t *testing.T) {
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	c1 := redistest.NewClient(t)
	t.Cleanup(func() {
		ctx := context.Background()
		if keys, _ := c1.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			c1.Del(ctx, keys...)
		}
	})
	process := func() *credsApp {
		rdb := redistest.NewClient(t)
		return newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
			c.PerIP = &redislimit.Limiter{Client: rdb, Max: 100, Window: time.Hour, Prefix: prefix + "ip:"}
			c.PerIdentifier = &redislimit.Limiter{Client: rdb, Max: 3, Window: 10 * time.Minute, Prefix: prefix + "id:"}
		})
	}
	one, two := process(), process()

	one.post(newBrowser(t), "jane", "wrong")
	two.post(newBrowser(t), "jane", "wrong")
	if loc := one.post(newBrowser(t), "jane", "wrong").Header.Get("Location"); loc != credentialsFailed {
		t.Fatalf("third failure answered %q", loc)
	}
	calls := two.calls.Load()
	b := newBrowser(t)
	locked := two.post(b, "jane", "correct horse")
	if locked.StatusCode != http.StatusTooManyRequests || locked.Header.Get("Retry-After") == "" {
		t.Fatalf("the other process answered %d, Retry-After %q: the lockout is not shared", locked.StatusCode, locked.Header.Get("Retry-After"))
	}
	if two.calls.Load() != calls || b.session(two.app) != nil {
		t.Fatal("Authorize ran, or a session was issued, while locked")
	}
	// Another account is not locked on either.
	if resp := two.post(newBrowser(t), "john", "x"); resp.Header.Get("Location") != credentialsFailed {
		t.Fatalf("other identifier: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestCredentialsFailClosedWithoutRedis: when the limiter cannot be read,
// the attempt is refused and Authorize does not run.
func TestCredentialsFailClosedWithoutRedis(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { rdb.Close() })
	a := newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
		c.PerIdentifier = redislimit.New(rdb, 3, time.Minute)
	})
	b := newBrowser(t)
	resp := a.post(b, "jane", "correct horse")
	if a.calls.Load() != 0 || b.session(a.app) != nil {
		t.Fatalf("signed in with the limiter down (%d Authorize calls)", a.calls.Load())
	}
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=CallbackRouteError") {
		t.Fatalf("answered %d %q, want an error", resp.StatusCode, loc)
	}
}

// The client side of RFC 9700 (OAuth 2.0 Security Best Current Practice),
// one test per checklist item, each named after its section. Items tested
// elsewhere:
//
//   - §4.14 refresh tokens (rotation saved atomically, single flight,
//     invalid_grant ends the session): TestTokenSourceDatabase,
//     TestTokenSourceSingleFlight, TestTokenSourceInvalidGrant,
//     TestTokenSourceJWT (tokens_test.go).
//   - §2.6 TLS (no plain http outside loopback or Development mode):
//     TestConfigErrors "http URL" (auth_test.go).
//   - §4.11.1 the full open-redirect vector list: TestRedirectPolicy and
//     FuzzSameOrigin.

// startFlow runs a sign-in up to the provider's answer and returns the
// callback URL the provider sent the browser to (not yet visited).
func (b *browser) startFlow(a *app, provider string) string {
	b.T.Helper()
	resp := b.Post(a.url+"/auth/signin/"+provider, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	cb := b.Get(resp.Header.Get("Location")) // AutoApprove: the provider answers at once
	cb.Body.Close()
	if cb.StatusCode != http.StatusFound {
		b.T.Fatalf("provider answered %d", cb.StatusCode)
	}
	return cb.Header.Get("Location")
}

func tokenRequests(op *authtest.Server) int { return count(op, authtest.EndpointToken) }

// §2.1.1: PKCE with S256 for every sign-in, confidential clients
// included, a fresh verifier each time, and the verifier sent with the
// code.
func TestRFC9700_2_1_1_PKCEAlways(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil) // confidential: client_secret_basic
	for range 2 {
		b := newBrowser(t)
		resp, body := b.signIn(a, "dev", "/private")
		expectSignedIn(t, a, b, resp, body)
	}
	var challenges, verifiers []string
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			if r.Query.Get("code_challenge_method") != "S256" {
				t.Fatalf("code_challenge_method %q", r.Query.Get("code_challenge_method"))
			}
			challenges = append(challenges, r.Query.Get("code_challenge"))
		case authtest.EndpointToken:
			if r.ClientAuth != "client_secret_basic" {
				t.Fatalf("not a confidential client: %q", r.ClientAuth)
			}
			verifiers = append(verifiers, r.Form.Get("code_verifier"))
		}
	}
	if len(challenges) != 2 || len(verifiers) != 2 || challenges[0] == challenges[1] {
		t.Fatalf("challenges %q, verifiers %q", challenges, verifiers)
	}
	for i, v := range verifiers {
		sum := sha256.Sum256([]byte(v))
		if len(v) < 43 || base64.RawURLEncoding.EncodeToString(sum[:]) != challenges[i] {
			t.Fatalf("verifier %d does not match its challenge", i)
		}
	}
}

// §4.7 (and §2.1): CSRF on the redirect endpoint. An authorization
// response delivered to a browser that did not start the flow (login
// CSRF: the attacker's own code in the victim's browser) is refused
// before any token request.
func TestRFC9700_4_7_CSRFStateBoundToBrowser(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	attacker, victim := newBrowser(t), newBrowser(t)
	cb := attacker.startFlow(a, "dev")
	final := victim.Follow(victim.Get(cb))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("the attacker's callback in the victim's browser ended on %s", final.Request.URL)
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests for a forged callback", n)
	}
	if s := victim.session(a); s != nil {
		t.Fatal("the victim was signed in as the attacker")
	}
}

// §4.5: authorization code injection. A code stolen from one flow and
// injected into another browser's callback (with that browser's own,
// valid state) fails at the token endpoint: the PKCE verifier is the
// victim's, not the one the code was issued for.
func TestRFC9700_4_5_CodeInjection(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	victim, attacker := newBrowser(t), newBrowser(t)
	stolen, _ := url.Parse(victim.startFlow(a, "dev"))
	own, _ := url.Parse(attacker.startFlow(a, "dev"))
	q := own.Query()
	q.Set("code", stolen.Query().Get("code"))
	own.RawQuery = q.Encode()
	final := attacker.Follow(attacker.Get(own.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "TokenExchangeFailed" || q.Get("code") != "invalid_grant" {
		t.Fatalf("injected code ended on %s", final.Request.URL)
	}
	if s := attacker.session(a); s != nil {
		t.Fatal("the injected code signed the attacker in")
	}
}

// twoProviders is an app with two OpenID providers, "dev" (honest) and
// "evil" (another issuer), each with its own callback path.
func twoProviders(t *testing.T) (*app, *authtest.Server) {
	evil := authtest.NewServer(authtest.Options{AutoApprove: true, ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret})
	t.Cleanup(evil.Close)
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = append(c.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "evil", Name: "Evil", Type: providers.TypeOIDC,
			Issuer: evil.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		})
	})
	return a, evil
}

// §4.4: mix-up. With two providers, (a) each has its own redirect URI;
// (b) a response for one arriving with the other's RFC 9207 iss is
// refused; (c) a response from a flow started at one provider delivered
// to the other's callback is refused. No token request reaches either.
func TestRFC9700_4_4_MixUp(t *testing.T) {
	a, evil := twoProviders(t)

	// (a) Distinct redirect URIs, per provider.
	for _, id := range []string{"dev", "evil"} {
		newBrowser(t).startFlow(a, id)
	}
	uris := map[string]bool{}
	for _, op := range []*authtest.Server{a.op, evil} {
		for _, r := range op.Requests() {
			if r.Endpoint == authtest.EndpointAuthorize {
				uris[r.Query.Get("redirect_uri")] = true
			}
		}
	}
	if !uris[a.url+"/auth/callback/dev"] || !uris[a.url+"/auth/callback/evil"] || len(uris) != 2 {
		t.Fatalf("redirect URIs %v", uris)
	}

	// (b) A dev response carrying evil's iss.
	b := newBrowser(t)
	cb, _ := url.Parse(b.startFlow(a, "dev"))
	q := cb.Query()
	q.Set("iss", evil.Issuer())
	cb.RawQuery = q.Encode()
	final := b.Follow(b.Get(cb.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" || q.Get("code") != "iss_mismatch" {
		t.Fatalf("foreign iss ended on %s", final.Request.URL)
	}

	// (c) A flow started at evil, its response delivered to dev's
	// callback (the attacker's authorization endpoint bounced to the
	// honest provider's redirect URI).
	b = newBrowser(t)
	cb, _ = url.Parse(b.startFlow(a, "evil"))
	cb.Path = "/auth/callback/dev"
	final = b.Follow(b.Get(cb.String()))
	if q := final.Request.URL.Query(); q.Get("error") != "InvalidCheck" {
		t.Fatalf("evil's response at dev's callback ended on %s", final.Request.URL)
	}
	if n, m := tokenRequests(a.op), tokenRequests(evil); n != 0 || m != 0 {
		t.Fatalf("token requests: dev %d, evil %d", n, m)
	}
}

// RFC 9207 §2.4 and RFC 6749 §3.1: parameters given twice are refused,
// whichever they are.
func TestRFC9700_4_4_DuplicateParameters(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, p := range []string{"iss", "state", "code"} {
		b := newBrowser(t)
		cb := b.startFlow(a, "dev")
		u, _ := url.Parse(cb)
		u.RawQuery += "&" + p + "=" + url.QueryEscape(u.Query().Get(p))
		final := b.Follow(b.Get(u.String()))
		if q := final.Request.URL.Query(); q.Get("error") != "OAuthCallbackError" || q.Get("code") != "malformed_response" {
			t.Fatalf("duplicate %s ended on %s", p, final.Request.URL)
		}
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests", n)
	}
}

// §2.1 and §4.1: exact redirect URIs. The authorization request's
// redirect_uri is the fixed per-provider callback, whatever the sign-in
// link says, and the token request repeats it exactly.
func TestRFC9700_4_1_ExactRedirectURI(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/signin/dev?redirect_uri=https://evil.example/cb&scope=openid+admin&response_type=token",
		url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})

	final := b.Follow(resp)
	body, _ := io.ReadAll(final.Body)
	expectSignedIn(t, a, b, final, string(body))
	want := a.url + "/auth/callback/dev"
	for _, r := range a.op.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			if r.Query.Get("redirect_uri") != want || r.Query.Get("response_type") != "code" || strings.Contains(r.Query.Get("scope"), "admin") {
				t.Fatalf("authorization request %v", r.Query)
			}
		case authtest.EndpointToken:
			if r.Form.Get("redirect_uri") != want {
				t.Fatalf("token request redirect_uri %q", r.Form.Get("redirect_uri"))
			}
		}
	}
}

// §4.11.1: no open redirector, after sign-in and after sign-out.
func TestRFC9700_4_11_1_NoOpenRedirect(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, evil := range []string{"https://evil.example/", "//evil.example", "/\\evil.example", "https:evil.example"} {
		b := newBrowser(t)
		if resp, _ := b.signIn(a, "dev", evil); resp.Request.URL.String() != a.url+"/" {
			t.Errorf("sign-in callbackUrl %q landed on %s", evil, resp.Request.URL)
		}
		out := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {evil}})
		if loc := out.Header.Get("Location"); loc != a.url+"/" {
			t.Errorf("sign-out callbackUrl %q went to %q", evil, loc)
		}
	}
}

// §4.2.4: the callback page leaks nothing through Referer: it answers a
// redirect with Referrer-Policy: no-referrer and no-store, and the page
// the browser lands on carries no code or state.
func TestRFC9700_4_2_4_NoReferrerLeak(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	cb := b.startFlow(a, "dev")
	resp := b.Get(cb)
	resp.Body.Close()
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(resp.Header.Get("Cache-Control"), "no-store") || resp.StatusCode/100 != 3 {
		t.Fatalf("callback answered %d, Referrer-Policy %q, Cache-Control %q", resp.StatusCode, resp.Header.Get("Referrer-Policy"), resp.Header.Get("Cache-Control"))
	}
	loc := resp.Header.Get("Location")
	if strings.Contains(loc, "code=") || strings.Contains(loc, "state=") {
		t.Fatalf("the landing URL %q carries the response", loc)
	}
}

// §4.3.2 and RFC 6750 §2.1: no token in any URL. The access token goes
// to userinfo in the Authorization header; no URL the browser visits
// holds a token; the session JSON holds none.
func TestRFC9700_4_3_2_NoTokensInURLs(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	resp, body := b.signIn(a, "dev", "/private")
	expectSignedIn(t, a, b, resp, body)
	for _, h := range append(b.Hops, resp.Request.URL.String()) {
		for _, p := range []string{"access_token", "id_token", "refresh_token"} {
			if strings.Contains(h, p) {
				t.Fatalf("URL %q carries %s", h, p)
			}
		}
	}
	for _, r := range a.op.Requests() {
		if r.Endpoint == authtest.EndpointUserinfo && (!strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || r.Query.Has("access_token")) {
			t.Fatalf("userinfo request %v %v", r.Header, r.Query)
		}
	}
	s := b.session(a)
	for _, k := range []string{"accessToken", "access_token", "idToken", "id_token"} {
		if _, ok := s[k]; ok {
			t.Fatalf("session JSON has %s", k)
		}
	}
}

// §2.1.2 and §4.6: no implicit or hybrid flow. response_type is code,
// and tokens in the front channel are refused before any token request.
func TestRFC9700_2_1_2_NoFrontChannelTokens(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, p := range []string{"access_token", "id_token"} {
		b := newBrowser(t)
		u, _ := url.Parse(b.startFlow(a, "dev"))
		u.RawQuery += "&" + p + "=x"
		final := b.Follow(b.Get(u.String()))
		if q := final.Request.URL.Query(); q.Get("code") != "front_channel_token" {
			t.Fatalf("front-channel %s ended on %s", p, final.Request.URL)
		}
	}
	if n := tokenRequests(a.op); n != 0 {
		t.Fatalf("%d token requests", n)
	}
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
var formAction = regexp.MustCompile(`<form[^>]* action="([^"]*)"`)

// §4.12: response_mode=form_post. The check cookies
// are SameSite=None; Secure (also on http://localhost, which browsers
// treat as secure), so a browser still sends them with the provider's
// cross-site POST, which withholds Lax cookies; the callback answers the
// POST with 303, never 307.
func TestRFC9700_4_12_FormPost(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Providers = []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "dev", Name: "Development", Type: providers.TypeOIDC,
			Issuer: a0issuer(c), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"response_mode": "form_post"}},
		}}
	})
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	sameSiteNone := map[string]bool{}
	for _, c := range resp.Cookies() {
		if c.SameSite == http.SameSiteNoneMode {
			if !c.Secure || !c.HttpOnly {
				t.Fatalf("cookie %s: SameSite=None without Secure and HttpOnly", c.Name)
			}
			sameSiteNone[c.Name] = true
		}
	}
	for _, n := range []string{"gatehouse.checks", "authjs.callback-url"} {
		if !sameSiteNone[n] {
			t.Fatalf("%s is not SameSite=None (SameSite=None cookies: %v)", n, sameSiteNone)
		}
	}
	page := b.Get(resp.Header.Get("Location"))
	raw, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := formAction.FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no form_post page: %s", raw)
	}
	action := html.UnescapeString(string(m[1]))
	form := url.Values{}
	for _, in := range hiddenInput.FindAllSubmatch(raw, -1) {
		form.Set(html.UnescapeString(string(in[1])), html.UnescapeString(string(in[2])))
	}
	// The cross-site POST, as a browser sends it: SameSite=None cookies
	// only.
	req, _ := http.NewRequest(http.MethodPost, action, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	au, _ := url.Parse(action)
	for _, c := range b.Client.Jar.Cookies(au) {
		if sameSiteNone[c.Name] {
			req.AddCookie(c)
		}
	}
	post, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusSeeOther || post.Header.Get("Location") != a.url+"/private" {
		t.Fatalf("form_post callback answered %d to %q", post.StatusCode, post.Header.Get("Location"))
	}
}

// a0issuer returns the issuer newApp configured for its dev provider.
func a0issuer(c *gatehouse.Config) string {
	return c.Providers[0].(providers.OAuthConfig[profile.Claims]).Issuer
}
