package gatehouse_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

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
		jar, _ := cookiejar.New(nil)
		b.c = &http.Client{Jar: jar, Transport: s.srv.Client().Transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return b
}

// startAs runs a sign-in at provider as the provider user sub up to the
// provider's answer, and returns the callback URL (not visited).
func (b *browser) startAs(a *app, provider, sub string) string {
	b.t.Helper()
	u := a.url + "/auth/signin/" + provider + "?" + url.Values{"login_hint": {sub}}.Encode()
	resp := b.post(u, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/private"}})
	resp.Body.Close()
	cb := b.get(resp.Header.Get("Location"))
	cb.Body.Close()
	if cb.StatusCode != http.StatusFound {
		b.t.Fatalf("provider answered %d", cb.StatusCode)
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
	for _, c := range attacker.c.Jar.Cookies(u) {
		if strings.HasSuffix(c.Name, suffix) {
			victim.c.Jar.SetCookies(u, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/"}})
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

				resp := victim.follow(victim.get(cb))
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

			resp := victim.follow(victim.get(cb))
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
	resp := victim.follow(victim.post(s.url+"/auth/callback/credentials",
		url.Values{"username": {"mallory"}, "password": {"pw"}, "csrfToken": {victim.csrf(s.app)}}))
	resp.Body.Close()
	wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "signed_in_as_other_user")
	s.wantUnchanged(t, victim, aliceID, "credentials", "cred-mallory")
	// Signed out, the same credentials sign in as their own user.
	other := s.browser(t)
	resp = other.follow(other.post(s.url+"/auth/callback/credentials",
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
	return b.do(req)
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
	resp := victim.do(req)
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
	resp = victim.follow(victim.post(s.url+"/auth/signout", url.Values{"csrfToken": {victim.csrf(s.app)}}))
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
	check("GET csrf", b.get(s.url+"/auth/csrf"))
	b2 := s.browser(t)
	check("GET signin", b2.get(s.url+"/auth/signin"))
	check("GET session", s.browser(t).get(s.url+"/auth/session"))
	check("GET providers", s.browser(t).get(s.url+"/auth/providers"))
	check("GET signout", s.browser(t).get(s.url+"/auth/signout"))
	resp := b.post(s.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(s.app)}, "callbackUrl": {"/private"}})
	check("POST signin", resp)
	cb := b.get(resp.Header.Get("Location"))
	cb.Body.Close()
	check("callback", b.get(cb.Header.Get("Location")))
	check("POST signout", b.post(s.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(s.app)}}))
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

	resp := victim.follow(victim.get(link))
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
	if _, body := attacker.signInWith(attacker.get(m.receive().Link())); body != "hello mallory@example.com" {
		t.Fatalf("the attacker's own link: %q", body)
	}
}

// TestAttackPasskeyCeremonyOtherSession: a passkey authentication is
// finished only in the session that asked for its options. The attacker
// asks for the options in their own browser, makes the assertion with
// their own passkey, and plants the challenge cookie and a CSRF pair in
// the victim's browser, which posts the assertion. These POSTs carry no
// Sec-Fetch-Site or Origin, so they pass the same-origin check (which
// refuses such a POST from a sibling subdomain or another site) and test
// the binding under it. Failed without the binding's check in
// completePasskey: the signed-out victim was signed in as the attacker
// (into a signed-in victim, checkSameUser still refused, with
// signed_in_as_other_user).
func TestAttackPasskeyCeremonyOtherSession(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.New(passkey.WebAuthnConfig{SignUp: true})}, nil)
	attacker := newBrowser(t)
	key := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	malloryID := wantSignedIn(t, attacker, a, attacker.register(a, "passkey", "email=mallory@example.com", key), "the attacker's sign-up")

	// finishIn runs the ceremony in the attacker's browser and finishes it
	// in the victim's.
	finishIn := func(t *testing.T, victim *browser) {
		t.Helper()
		data := attacker.assertion(a, "passkey", key)
		plantCookie(t, a.app, attacker, victim, "authjs.challenge")
		token := plantCSRF(t, a.app, attacker, victim)
		resp := victim.post(a.url+"/auth/callback/passkey", url.Values{"action": {"authenticate"}, "data": {data}, "csrfToken": {token}, "callbackUrl": {"/private"}})
		if setsSession(resp) {
			t.Error("the refused ceremony set a session cookie")
		}
		resp = victim.follow(resp)
		resp.Body.Close()
		wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "session_mismatch")
	}

	t.Run("options in a signed-in session, finished signed out", func(t *testing.T) {
		victim := newBrowser(t)
		victim.csrf(a.app) // the victim has visited the site
		finishIn(t, victim)
		if id := victim.userID(a.app); id != "" {
			t.Fatalf("the victim was signed in as %q (the attacker is %q)", id, malloryID)
		}
	})

	t.Run("options signed out, finished in a signed-in session", func(t *testing.T) {
		attacker.signOut(a)
		victim := newBrowser(t)
		victim.signIn(a.app, "dev", "/")
		before := victim.userID(a.app)
		finishIn(t, victim)
		if got := victim.userID(a.app); got != before || got == "" {
			t.Fatalf("the victim's session changed: %q, want %q", got, before)
		}
		if list, _ := a.store.ListAuthenticatorsByUserID(t.Context(), before); len(list) != 0 {
			t.Fatalf("the victim's user has passkeys: %v", list)
		}
	})

	// In the session that asked for the options, the same passkey signs in.
	if id := wantSignedIn(t, attacker, a, attacker.authenticate(a, "passkey", key), "the attacker's own ceremony"); id != malloryID {
		t.Fatalf("signed in as %q, want %q", id, malloryID)
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
	b.get(s.url + "/auth/session").Body.Close()
	if now := b.cookie(s.app, sessionCookie); now == "" || now == started {
		t.Fatal("the session cookie was not re-sealed between start and callback")
	}

	resp := b.follow(b.get(cb))
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
	resp := victim.follow(victim.do(req))
	resp.Body.Close()
	wantError(t, resp, "error", gatehouse.AccountLinkMismatch, "session_mismatch")
	s.wantUnchanged(t, victim, aliceID, "other", "mallory")
}
