package gatehouse_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
