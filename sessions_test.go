package gatehouse_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func (b *browser) sessions(a *app) (int, []map[string]any) { return b.getList(a, "/auth/sessions") }

func (b *browser) revoke(a *app, path string, form url.Values) int {
	b.t.Helper()
	form.Set("csrfToken", b.csrf(a))
	resp := b.post(a.url+"/auth/sessions/"+path, form)
	resp.Body.Close()
	return resp.StatusCode
}

// TestSessionManagement: GET {base}/sessions lists the user's sessions
// (this browser's marked current, no token or hash), POST revoke ends one
// by id and revoke-others every other; the event is told.
func TestSessionManagement(t *testing.T) {
	st := openStore(t, "memory")
	revoked := 0
	a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Events.RevokeSessions = func(_ context.Context, _ profile.User, n int) { revoked += n }
	})
	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)

	code, list := laptop.sessions(a)
	if code != http.StatusOK || len(list) != 2 {
		t.Fatalf("sessions: %d %v", code, list)
	}
	var other string
	for _, s := range list {
		if s["current"] != true {
			other = s["id"].(string)
		}
		if id := s["id"].(string); len(id) != 24 || id == laptop.cookie(a, sessionCookie) {
			t.Fatalf("session id %q", id)
		}
		// When and by what each session was made: a coarse device, never
		// the raw User-Agent header.
		created, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(s["created"]))
		if s["device"] != "Go HTTP client" || time.Since(created) > time.Minute || s["lastSeen"] != s["created"] {
			t.Fatalf("session metadata: %v", s)
		}
	}
	if other == "" {
		t.Fatalf("no session other than the current one: %v", list)
	}
	if code := laptop.revoke(a, "revoke", url.Values{"id": {"nope"}}); code != http.StatusNotFound {
		t.Fatalf("revoking an unknown id: %d", code)
	}
	if code := laptop.revoke(a, "revoke", url.Values{"id": {other}}); code != http.StatusOK {
		t.Fatalf("revoke: %d", code)
	}
	if s := phone.session(a); s != nil {
		t.Fatalf("the revoked phone is still signed in: %v", s)
	}
	if s := laptop.session(a); s == nil {
		t.Fatal("revoking the phone signed the laptop out")
	}

	signedIn(t, a, phone)
	tablet := newBrowser(t)
	signedIn(t, a, tablet)
	if code := laptop.revoke(a, "revoke-others", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-others: %d", code)
	}
	if phone.session(a) != nil || tablet.session(a) != nil || laptop.session(a) == nil {
		t.Fatal("revoke-others did not end exactly the other sessions")
	}
	if revoked != 3 {
		t.Fatalf("RevokeSessions told of %d sessions, want 3", revoked)
	}
	if _, list := laptop.sessions(a); len(list) != 1 || list[0]["current"] != true {
		t.Fatalf("after revoke-others: %v", list)
	}
	// Another site cannot end them.
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/sessions/revoke-others", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp := laptop.do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site revoke: %d", resp.StatusCode)
	}
}

// TestSessionManagementJWT: JWT sessions cannot be listed, and say so.
func TestSessionManagementJWT(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	if code, _ := b.sessions(a); code != http.StatusNotImplemented {
		t.Fatalf("GET sessions with JWT sessions: %d", code)
	}
}

// TestSessionsPageSignedOut: a browser that is not signed in is sent to
// sign in and back to the sessions page; a script gets 401.
func TestSessionsPageSignedOut(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodGet, a.url+"/auth/sessions", nil)
	req.Header.Set("Accept", "text/html")
	resp := b.do(req)
	resp.Body.Close()
	want := a.url + "/auth/signin?callbackUrl=" + url.QueryEscape(a.url+"/auth/sessions")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != want {
		t.Fatalf("signed-out page: %d to %q, want 302 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	if code, _ := b.sessions(a); code != http.StatusUnauthorized {
		t.Fatalf("signed-out JSON: %d, want 401", code)
	}
}

// TestSessionsRevokeAll: POST {base}/sessions/revoke-all ends every
// session of the user, this browser's too, and clears its cookie.
func TestSessionsRevokeAll(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)
	if code := laptop.revoke(a, "revoke-all", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-all: %d", code)
	}
	if laptop.session(a) != nil || phone.session(a) != nil {
		t.Fatal("a session outlived revoke-all")
	}
	if laptop.cookie(a, sessionCookie) != "" {
		t.Fatal("this browser's session cookie was not cleared")
	}
}

const sessionDataCookie = "gatehouse.session-data"

// TestCookieCache: with SessionConfig.CookieCache, a database session is
// read from the database once per MaxAge per browser; signing out on this
// browser ends it at once; a revocation elsewhere takes effect when the
// copy expires; a copy made for another session token is never used.
func TestCookieCache(t *testing.T) {
	const maxAge = 1500 * time.Millisecond
	st := openStore(t, "memory")
	a, _ := newDBApp(t, st, twoUsers, func(cfg *gatehouse.Config) {
		cfg.Session.CookieCache = gatehouse.CookieCache{Enabled: true, MaxAge: maxAge}
	})
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	if b.cookie(a, sessionDataCookie) == "" {
		t.Fatal("no cookie cache written on the first page after signing in")
	}
	b.dropCookie(a, sessionDataCookie)
	st.spy.reset()
	for range 5 {
		if s := b.session(a); s == nil {
			t.Fatal("no session")
		}
	}
	if n := st.spy.count("GetSessionAndUser"); n != 1 {
		t.Fatalf("5 session reads made %d database reads, want 1 (then the cookie cache)", n)
	}
	if b.cookie(a, sessionDataCookie) == "" {
		t.Fatal("no cookie cache written")
	}

	// Another browser's copy, planted here, is not this session's.
	other := newBrowser(t)
	other.signInUser(a, "bob")
	other.session(a)
	planted := other.cookie(a, sessionDataCookie)
	b.setCookie(a, sessionDataCookie, planted)
	if s := b.session(a); s == nil || s["user"].(map[string]any)["email"] != "alice@example.com" {
		t.Fatalf("with bob's copy planted, the session is %v", s)
	}

	// Revoked elsewhere (its row deleted): accepted until the copy
	// expires, then refused.
	b.session(a) // a fresh copy of alice's session
	raw := b.cookie(a, sessionCookie)
	if _, err := st.raw.DeleteSession(context.Background(), hashOf(raw)); err != nil {
		t.Fatal(err)
	}
	if s := b.session(a); s == nil {
		t.Fatal("the copy was not used within MaxAge")
	}
	time.Sleep(maxAge + 100*time.Millisecond)
	if s := b.session(a); s != nil {
		t.Fatalf("a revoked session outlived the cookie cache's MaxAge: %v", s)
	}

	// Signing out on this browser ends the session at once.
	c := newBrowser(t)
	c.signIn(a, "dev", "/")
	c.session(a)
	resp := c.post(a.url+"/auth/signout", url.Values{"csrfToken": {c.csrf(a)}})
	resp.Body.Close()
	if c.cookie(a, sessionDataCookie) != "" {
		t.Fatal("sign-out left the cookie cache")
	}
	if s := c.session(a); s != nil {
		t.Fatalf("signed out, the session is %v", s)
	}
}

// TestCookieCacheNeedsDatabase: the cache is refused for JWT sessions.
func TestCookieCacheNeedsDatabase(t *testing.T) {
	op := newOP(t, authtest.Options{})
	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{devProvider(op)},
		Session: gatehouse.SessionConfig{Strategy: gatehouse.StrategyJWT, CookieCache: gatehouse.CookieCache{Enabled: true}}})
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Session.CookieCache" {
		t.Fatalf("New = %v, want a ConfigError on Session.CookieCache", err)
	}
}

// setCookie puts a cookie for the app in the browser's jar, as a
// sibling page or an attacker could.
func (b *browser) setCookie(a *app, name, value string) {
	u, _ := url.Parse(a.url)
	b.c.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// dropCookie removes a cookie from the browser's jar.
func (b *browser) dropCookie(a *app, name string) {
	u, _ := url.Parse(a.url)
	b.c.Jar.SetCookies(u, []*http.Cookie{{Name: name, Path: "/", MaxAge: -1}})
}

// hashOf is how the database strategy stores a session token.
func hashOf(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// TestSweep: Handler.Sweep deletes expired sessions and e-mail tokens,
// keeps live ones, and stops with its context.
func TestSweep(t *testing.T) {
	store := memory.New()
	op := newOP(t, authtest.Options{})
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: store, Providers: []providers.Provider{devProvider(op)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	u, _ := store.CreateUser(ctx, adapter.User{Email: "a@example.com"})
	store.CreateSession(ctx, adapter.Session{Token: "old", UserID: u.ID, Expires: time.Now().Add(-time.Hour)})
	store.CreateSession(ctx, adapter.Session{Token: "live", UserID: u.ID, Expires: time.Now().Add(time.Hour)})
	store.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "a@example.com", TokenHash: "old", Expires: time.Now().Add(-time.Minute)})

	sweepCtx, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- h.Sweep(sweepCtx, time.Hour) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, _, err := store.GetSessionAndUser(ctx, "old"); errors.Is(err, adapter.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the expired session was not swept")
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Sweep returned %v, want context.Canceled", err)
	}
	if _, _, err := store.GetSessionAndUser(ctx, "live"); err != nil {
		t.Fatalf("the live session was swept: %v", err)
	}
	if _, err := store.UseVerificationToken(ctx, "a@example.com", "old"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("the expired token is still there: %v", err)
	}
	// Without an adapter there is nothing to sweep: said at once.
	jwt, _ := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{devProvider(op)}})
	var ce *gatehouse.ConfigError
	if err := jwt.Sweep(ctx, 0); !errors.As(err, &ce) {
		t.Fatalf("Sweep without an adapter = %v", err)
	}
}

// TestSessionsPageProviderName: the sessions page names the provider a
// session signed in with by its display name, as the accounts page does;
// the JSON keeps its id.
func TestSessionsPageProviderName(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	if _, list := b.sessions(a); len(list) != 1 || list[0]["provider"] != "dev" {
		t.Fatalf("sessions JSON %v, want one session of provider dev", list)
	}
	req, _ := http.NewRequest(http.MethodGet, a.url+"/auth/sessions", nil)
	req.Header.Set("Accept", "text/html")
	resp := b.do(req)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "signed in with Development") || strings.Contains(string(body), "signed in with dev") {
		t.Fatalf("sessions page does not name the provider Development:\n%s", body)
	}
}
