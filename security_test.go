package gatehouse_test

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
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
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
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
	b.post(a.url+"/auth/signin/email", url.Values{"csrfToken": {b.csrf(a.app)}, "email": {addr}, "callbackUrl": {"/private"}}).Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, body := b.signInWith(b.get(msg.Link()))
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
					t.Fatalf("the victim's sign-in was refused: %q (hops %v)", body, victim.hops)
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
	b.signInWith(b.get(a.next(passwordaccount.KindVerify).URL))
	owner, err := db.GetUserByEmail(context.Background(), "ann@example.com")
	if err != nil || owner.EmailVerified == nil {
		t.Fatalf("confirmed user: %+v, %v", owner, err)
	}
	other := newBrowser(t)
	emailSignIn(t, a, ms, other, "ann@example.com")
	if id := signedInID(a.app, other); id != owner.ID {
		t.Fatalf("the link signed in %q, want the confirmed user %q", id, owner.ID)
	}
	if _, body := other.signInWith(a.signIn(newBrowser(t), "ann@example.com", "correct horse battery")); body != "hello ann@example.com" {
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
						c.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
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
	resp := b.get(base + "/bare")
	if body, _ := io.ReadAll(resp.Body); string(body) != "true" {
		t.Fatalf("bare Funcs without a CSRF cookie: ErrNoCSRFToken %s", body)
	}
	resp = b.get(base + "/page")
	page, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`name="csrfToken" value="([0-9a-f]{64})"`).FindStringSubmatch(string(page))
	if m == nil {
		t.Fatalf("Execute rendered no CSRF token:\n%s", page)
	}
	// The rendered form works: it signs in.
	if _, body := b.postSignIn(base+"/auth/signin/dev", url.Values{"csrfToken": {m[1]}, "callbackUrl": {"/private"}}); body != "hello alice@example.com" {
		t.Fatalf("signing in with the rendered form, then Require: %q (hops %v)", body, b.hops)
	}
	resp = b.get(base + "/page")
	if page, _ := io.ReadAll(resp.Body); !strings.HasSuffix(string(page), "|alice@example.com") {
		t.Fatalf("Execute does not see the session:\n%s", page)
	}
	if resp := newBrowser(t).get(base + "/private"); resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "/auth/signin?callbackUrl=%2Fprivate") {
		t.Fatalf("Require for nobody: %d %s", resp.StatusCode, resp.Header.Get("Location"))
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
			c.Providers = append(c.Providers, email.Config{Server: ms.URL(), From: "Gatehouse <no-reply@example.com>"})
		})
		b := newBrowser(t)
		if _, body := b.signInWith(a.post(b, "jane", "correct horse")); body != "hello jane@example.com" {
			t.Fatalf("sign-in: %q", body)
		}
		if code, body := b.unlink(a.app, "credentials"); code != http.StatusConflict || !strings.Contains(body, "not_unlinkable") {
			t.Fatalf("unlinking the credentials account: %d %s", code, body)
		}
		if _, list := b.accounts(a.app); len(list) != 1 || list[0]["canUnlink"] != false {
			t.Fatalf("accounts: %v", list)
		}
		again := newBrowser(t)
		if _, body := again.signInWith(a.post(again, "jane", "correct horse")); body != "hello jane@example.com" {
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
		b.signInWith(b.get(a.next(passwordaccount.KindVerify).URL))
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
				resp := b.get(a.url + "/private")
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
