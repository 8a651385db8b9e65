package gatehouse_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/twofactor"
	"github.com/redis/go-redis/v9"
)

// twoFactorApp is an app with two-factor sign-in on, over the memory
// adapter (a twofactor.Store), recording Events.TwoFactor.
func twoFactorApp(t *testing.T, mutate func(*gatehouse.Config)) (*app, func() []gatehouse.TwoFactorChange) {
	t.Helper()
	st := openStore(t, "memory")
	var mu sync.Mutex
	var changes []gatehouse.TwoFactorChange
	a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = st.raw
		cfg.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true, Issuer: "Example"}
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
	b.t.Helper()
	form.Set("csrfToken", b.csrf(a))
	u := a.url + "/auth/two-factor"
	if action != "" {
		u += "/" + action
	}
	resp := b.post(u, form)
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
	b.t.Helper()
	resp := b.get(a.url + path)
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
			resp := bs[i].post(a.url+"/auth/two-factor", forms[i])
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
		Providers: []providers.Provider{devProvider(op)}, TwoFactor: gatehouse.TwoFactorConfig{Enabled: true}}
	_, err := gatehouse.New(cfg)
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "TwoFactor.Enabled" {
		t.Fatalf("New = %v, want a ConfigError for TwoFactor.Enabled", err)
	}
}

// TestTwoFactorPasskey: a passkey whose authenticator verified the user
// (UV) is two factors and signs in without a code; one without UV (the
// webauthn provider only prefers it) stops at the code form.
func TestTwoFactorPasskey(t *testing.T) {
	a := newPasskeyApp(t, []providers.Provider{passkey.WebAuthn(passkey.WebAuthnConfig{})}, func(cfg *gatehouse.Config) {
		cfg.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
	})
	key := newSoftKey(a, virtualwebauthn.AuthenticatorOptions{})
	owner := newBrowser(t)
	owner.signIn(a.app, "dev", "/")
	wantSignedIn(t, owner, a, owner.register(a, "webauthn", "", key), "register")
	enrol(t, a.app, owner)

	b := newBrowser(t)
	wantSignedIn(t, b, a, b.authenticate(a, "webauthn", key), "a passkey with UV")

	lax := *key
	lax.auth.Options.UserNotVerified = true
	c := newBrowser(t)
	resp := c.authenticate(a, "webauthn", &lax)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != a.url+"/auth/two-factor" {
		t.Fatalf("a passkey without UV: %d to %q, want the code form", resp.StatusCode, loc)
	}
	if c.session(a.app) != nil {
		t.Fatal("a session from a passkey without UV and no code")
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
		Providers: []providers.Provider{devProvider(op)}, TwoFactor: gatehouse.TwoFactorConfig{Enabled: true}})
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "TwoFactor.Enabled" {
		t.Fatalf("New = %v, want a ConfigError for TwoFactor.Enabled", err)
	}
}

// TestTwoFactorAfterPassword: a password is a first factor like any
// other: with two-factor sign-in on, the right password alone makes no
// session, and the code finishes the sign-in where it was going.
func TestTwoFactorAfterPassword(t *testing.T) {
	a := newPwApp(t, func(c *gatehouse.Config, _ *passwordaccount.Config) {
		c.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
	})
	b := newBrowser(t)
	a.postAs(b, "password/sign-up", url.Values{"email": {"ann@example.com"}, "password": {"correct horse battery"}}, false).Body.Close()
	b.signInWith(b.get(a.next(passwordaccount.KindVerify).URL))
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
		c.TwoFactor = gatehouse.TwoFactorConfig{Enabled: true}
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
	tok, err := a.op.LogoutToken("alice", map[string]any{"sid": sids[1], "sub": nil})
	if err != nil {
		t.Fatal(err)
	}
	if st := postLogout(t, a, tok); st != http.StatusOK {
		t.Fatalf("logout answered %d", st)
	}
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
		return b.do(req)
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
