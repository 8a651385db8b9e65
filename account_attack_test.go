package gatehouse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

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
		c.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
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
	b.signInWith(b.get(a.next(passwordaccount.KindVerify).URL))
	if got := a.signedIn(b); got != addr {
		t.Fatalf("after confirming, signed in as %q, want %q", got, addr)
	}
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

// secondStep sends a wrong code (refused, no session) and then code,
// and fails the test unless b is then signed in as userID.
func secondStep(t *testing.T, a *app, b *browser, code, userID, route string) {
	t.Helper()
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
			form.Set("csrfToken", strings.Repeat("0", 64))
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
	return b.do(req)
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
			confirmedPasswordUser(t, a, owner, "owner@example.com", "correct horse battery")
			_, backups := enrol(t, a.app, owner)
			ownerID := owner.userID(a.app)
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
			newBrowser(t).get(usedLink).Body.Close()
			usedEmailPath := strings.TrimPrefix(usedLink, a.url+"/auth/")

			a.postAs(anon, "password/sign-up", url.Values{"email": {"verified@example.com"}, "password": {"correct horse battery"}}, false).Body.Close()
			verify := a.next(passwordaccount.KindVerify).URL
			newBrowser(t).get(verify).Body.Close()
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
			confirmedPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
			_, annCodes := enrol(t, a.app, owner)
			annID := owner.userID(a.app)

			pw := newBrowser(t)
			atCodeStep(t, a.app, pw, a.signIn(pw, "ann@example.com", "correct horse battery"), "password")
			secondStep(t, a.app, pw, annCodes[0], annID, "password")

			link := newBrowser(t)
			atCodeStep(t, a.app, link, link.follow(link.get(askLink(t, a, ms, link, "ann@example.com"))), "e-mail link")
			secondStep(t, a.app, link, annCodes[1], annID, "e-mail link")

			// The provider's alice.
			alice := newBrowser(t)
			alice.signInUser(a.app, "alice")
			_, aliceCodes := enrol(t, a.app, alice)
			aliceID := alice.userID(a.app)
			oidc := newBrowser(t)
			resp, _ := oidc.signInAs(a.app, "dev", "alice")
			atCodeStep(t, a.app, oidc, resp, "OpenID")
			secondStep(t, a.app, oidc, aliceCodes[0], aliceID, "OpenID")

			// Signed in with both factors, a second sign-in of the same
			// user asks for no code, by any route.
			if _, body := oidc.signInAs(a.app, "dev", "alice"); body != "hello alice@example.com" || oidc.userID(a.app) != aliceID {
				t.Fatalf("a second OpenID sign-in of the signed-in user: %q as %q", body, oidc.userID(a.app))
			}
			if _, body := pw.signInWith(a.signIn(pw, "ann@example.com", "correct horse battery")); body != "hello ann@example.com" || pw.userID(a.app) != annID {
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
			resp, _ = bob.signInWith(a.signIn(bob, "ann@example.com", "correct horse battery"))
			refusedAsOther("ann's password", resp)
			resp, _ = bob.signInWith(bob.get(askLink(t, a, ms, bob, "ann@example.com")))
			refusedAsOther("ann's e-mail link", resp)
			resp, _ = bob.signInAs(a.app, "dev", "alice")
			refusedAsOther("alice's OpenID sign-in", resp)
		})
	}
	t.Run("credentials", func(t *testing.T) {
		a := newCredsApp(t, func(c *gatehouse.Config, _ *credentials.Config) {
			c.Adapter = openStore(t, "memory").raw
			c.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
		})
		owner := newBrowser(t)
		if _, body := owner.signInWith(a.post(owner, "jane", "correct horse")); body != "hello jane@example.com" {
			t.Fatalf("sign-in: %q", body)
		}
		_, codes := enrol(t, a.app, owner)
		janeID := owner.userID(a.app)
		b := newBrowser(t)
		atCodeStep(t, a.app, b, b.follow(a.post(b, "jane", "correct horse")), "credentials")
		secondStep(t, a.app, b, codes[0], janeID, "credentials")
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
			confirmedPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
			_, codes := enrol(t, a.app, owner)
			annID := owner.userID(a.app)
			phone := newBrowser(t)
			atCodeStep(t, a.app, phone, a.signIn(phone, "ann@example.com", "correct horse battery"), "password")
			secondStep(t, a.app, phone, codes[0], annID, "password")

			thief := newBrowser(t)
			if code, v := jsonOf(t, a.postAs(thief, "password/forgot", url.Values{"email": {"ann@example.com"}}, false)); code != http.StatusOK {
				t.Fatalf("forgot: %d %v", code, v)
			}
			link := mustParse(t, a.next(passwordaccount.KindReset).URL).Query()
			if code, v := jsonOf(t, a.postAs(thief, "password/reset", url.Values{"email": {link.Get("email")}, "token": {link.Get("token")}, "password": {"a brand new password"}}, false)); code != http.StatusOK || v["code"] != "password_reset" {
				t.Fatalf("reset: %d %v", code, v)
			}
			if owner.session(a.app) != nil || phone.session(a.app) != nil || thief.session(a.app) != nil {
				t.Fatal("a session survived the reset, or the reset made one")
			}
			if code, v := jsonOf(t, a.postAs(owner, "two-factor/disable", url.Values{"code": {codes[1]}}, false)); code != http.StatusUnauthorized {
				t.Fatalf("signed out by the reset, turning two-factor sign-in off: %d %v", code, v)
			}

			next := newBrowser(t)
			atCodeStep(t, a.app, next, a.signIn(next, "ann@example.com", "a brand new password"), "the new password")
			secondStep(t, a.app, next, codes[1], annID, "the new password")
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
					resp := bs[i].get(link)
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
					c.TwoFactor.PerUser = limit.None{}
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
						resp := b.post(a.url+"/auth/two-factor/"+action, form)
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
				atCodeStep(t, a.app, other, other.follow(other.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {other.csrf(a.app)}, "callbackUrl": {"/private"}})), "OpenID")
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
					resp := laptop.post(a.url+"/auth/sessions/revoke", form)
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
	answer := func(path, addr string, html bool) string {
		form := url.Values{"email": {addr}}
		if path == "password/sign-up" {
			form.Set("password", "some other password")
		}
		resp := a.postAs(b, path, form, html)
		defer resp.Body.Close()
		resp.Header.Del("Date")
		var out bytes.Buffer
		out.WriteString(resp.Status + "\n")
		_ = resp.Header.Write(&out)
		_, _ = io.Copy(&out, resp.Body)
		return out.String()
	}
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

			if resp, body := b.signInWith(a.signIn(b, "ann@example.com", "correct horse battery")); body != "hello ann@example.com" || b.userID(a.app) != annID {
				t.Fatalf("signing in again as ann: ended at %s, signed in as %q", resp.Request.URL, b.userID(a.app))
			}
			resp, _ := b.signInWith(a.signIn(b, "cid@example.com", "another good password"))
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
				c.TwoFactor.PerUser = limit.None{}
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
					resp := b.post(a.url+"/auth/two-factor/confirm", form)
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
			atCodeStep(t, a.app, other, other.follow(other.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {other.csrf(a.app)}, "callbackUrl": {"/private"}})), "OpenID")
			secondStep(t, a.app, other, codes[0], b.userID(a.app), "OpenID")
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
				confirmedPasswordUser(t, a, owner, "ann@example.com", "correct horse battery")
				_, codes := enrol(t, a.app, owner)
				annID := owner.userID(a.app)
				thief := newBrowser(t)
				atCodeStep(t, a.app, thief, a.signIn(thief, "ann@example.com", "correct horse battery"), "the old password")

				if how == "reset" {
					jsonOf(t, a.postAs(owner, "password/forgot", url.Values{"email": {"ann@example.com"}}, false))
					link := mustParse(t, a.next(passwordaccount.KindReset).URL).Query()
					if code, v := jsonOf(t, a.postAs(owner, "password/reset", url.Values{"email": {link.Get("email")}, "token": {link.Get("token")}, "password": {"a brand new password"}}, false)); code != http.StatusOK {
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
				atCodeStep(t, a.app, next, a.signIn(next, "ann@example.com", "a brand new password"), "the new password")
				secondStep(t, a.app, next, codes[1], annID, "the new password")
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
			resetLink := func() url.Values {
				t.Helper()
				if code, v := jsonOf(t, a.postAs(stranger, "password/forgot", url.Values{"email": {"ann@example.com"}}, false)); code != http.StatusOK {
					t.Fatalf("forgot: %d %v", code, v)
				}
				return mustParse(t, a.next(passwordaccount.KindReset).URL).Query()
			}
			reset := func(link url.Values, pw string) (int, map[string]any) {
				return jsonOf(t, a.postAs(newBrowser(t), "password/reset", url.Values{"email": {link.Get("email")}, "token": {link.Get("token")}, "password": {pw}}, false))
			}
			stolen, mine := resetLink(), resetLink()
			if code, v := reset(mine, "the owner's new password"); code != http.StatusOK {
				t.Fatalf("the owner's reset: %d %v", code, v)
			}
			if code, v := reset(stolen, "the thief's password"); code != http.StatusBadRequest || v["code"] != "invalid_token" {
				t.Fatalf("a link asked for before the reset: %d %v", code, v)
			}

			stolen = resetLink()
			b := newBrowser(t)
			b.signInWith(a.signIn(b, "ann@example.com", "the owner's new password"))
			if code, v := jsonOf(t, a.postAs(b, "password/change", url.Values{"currentPassword": {"the owner's new password"}, "newPassword": {"changed by the owner"}}, false)); code != http.StatusOK {
				t.Fatalf("change: %d %v", code, v)
			}
			if code, v := reset(stolen, "the thief's password"); code != http.StatusBadRequest || v["code"] != "invalid_token" {
				t.Fatalf("a link asked for before the change: %d %v", code, v)
			}
			c := newBrowser(t)
			if _, body := c.signInWith(a.signIn(c, "ann@example.com", "changed by the owner")); body != "hello ann@example.com" {
				t.Fatalf("the owner's password stopped working: %q", body)
			}

			if code, v := reset(resetLink(), "a later new password"); code != http.StatusOK {
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
				atCodeStep(t, a.app, b, b.follow(b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a.app)}, "callbackUrl": {"/private"}})), "OpenID")
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
