package gatehouse_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func (b *browser) sessions(a *app) (int, []map[string]any) { return b.getList(a, "/auth/sessions") }

func (b *browser) revoke(a *app, path string, form url.Values) int {
	b.T.Helper()
	form.Set("csrfToken", b.csrf(a))
	resp := b.Post(a.url+"/auth/sessions/"+path, form)
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
	resp := laptop.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site revoke: %d", resp.StatusCode)
	}
}

// TestSessionManagementJWT: JWT sessions cannot be listed, and say so.
func TestSessionManagementJWT(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, func(c *gatehouse.Config) { c.Session.Strategy = gatehouse.StrategyJWT })
	b := newBrowser(t)
	signedIn(t, a, b)
	resp := b.Get(a.url + "/auth/sessions")
	defer resp.Body.Close()
	var answer map[string]string
	json.NewDecoder(resp.Body).Decode(&answer)
	if resp.StatusCode != http.StatusNotImplemented || answer["code"] != "not_listable" {
		t.Fatalf("GET sessions with JWT sessions: %d %v, want 501 not_listable", resp.StatusCode, answer)
	}
}

// TestSessionsPageSignedOut: a browser that is not signed in is sent to
// sign in and back to the sessions page; a script gets 401.
func TestSessionsPageSignedOut(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodGet, a.url+"/auth/sessions", nil)
	req.Header.Set("Accept", "text/html")
	resp := b.Do(req)
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
	resp := c.Post(a.url+"/auth/signout", url.Values{"csrfToken": {c.csrf(a)}})
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
	b.Client.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// dropCookie removes a cookie from the browser's jar.
func (b *browser) dropCookie(a *app, name string) {
	u, _ := url.Parse(a.url)
	b.Client.Jar.SetCookies(u, []*http.Cookie{{Name: name, Path: "/", MaxAge: -1}})
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
	resp := b.Do(req)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "signed in with Development") || strings.Contains(string(body), "signed in with dev") {
		t.Fatalf("sessions page does not name the provider Development:\n%s", body)
	}
}

// apiCall sends one request as an API client would: no cookie jar, no
// redirects followed, the given Authorization header and cookies.
func apiCall(t *testing.T, method, u, authorization string, cookies ...*http.Cookie) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

func wantInvalidToken(t *testing.T, what string, resp *http.Response, body string) {
	t.Helper()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("%s: status %d (%q), want 401", what, resp.StatusCode, body)
	}
	if ch := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, `Bearer error="invalid_token"`) {
		t.Fatalf("%s: WWW-Authenticate %q", what, ch)
	}
	if sc := resp.Header.Values("Set-Cookie"); len(sc) != 0 {
		t.Fatalf("%s: a Bearer request got cookies %v", what, sc)
	}
}

// signedInToken signs a browser in and returns it with its session token.
func signedInToken(t *testing.T, a *app) (*browser, string) {
	t.Helper()
	b := newBrowser(t)
	if _, body := b.signIn(a, "dev", "/private"); body != "hello alice@example.com" {
		t.Fatalf("sign-in landed on %q", body)
	}
	tok := b.cookie(a, "authjs.session-token")
	if tok == "" {
		t.Fatal("no session cookie after sign-in")
	}
	return b, tok
}

// bearerRules checks every Bearer rule against a signed-in app; tok is its
// session token as the cookie holds it.
func bearerRules(t *testing.T, a *app, tok string) {
	t.Helper()
	// The token in the header is the session; no cookie is written.
	resp, body := apiCall(t, "GET", a.url+"/private", "Bearer "+tok)
	if resp.StatusCode != http.StatusOK || body != "hello alice@example.com" {
		t.Fatalf("Bearer: %d %q", resp.StatusCode, body)
	}
	if sc := resp.Header.Values("Set-Cookie"); len(sc) != 0 {
		t.Fatalf("Bearer request got cookies %v", sc)
	}
	// The scheme is case-insensitive (RFC 9110 §11.1).
	if resp, body := apiCall(t, "GET", a.url+"/private", "bearer "+tok); resp.StatusCode != http.StatusOK {
		t.Fatalf("lower-case scheme: %d %q", resp.StatusCode, body)
	}

	// A bad token: 401 with the RFC 6750 §3 challenge, never a redirect.
	// The tampered one differs in its middle: a change to the last
	// character alone can fall in bits base64 decoding drops.
	mid, c := len(tok)/2, byte('A')
	if tok[mid] == c {
		c = 'B'
	}
	for name, h := range map[string]string{
		"tampered":  "Bearer " + tok[:mid] + string(c) + tok[mid+1:],
		"garbage":   "Bearer not-a-session",
		"empty":     "Bearer ",
		"bad chars": "Bearer " + tok + "%20",
	} {
		resp, body := apiCall(t, "GET", a.url+"/private", h)
		wantInvalidToken(t, name, resp, body)
	}

	// The header wins over cookies: a good cookie does not rescue a bad
	// token, and a bad cookie beside a good token is neither read nor
	// cleared.
	good := &http.Cookie{Name: "authjs.session-token", Value: tok}
	resp, body = apiCall(t, "GET", a.url+"/private", "Bearer nope", good)
	wantInvalidToken(t, "bad token, good cookie", resp, body)
	resp, body = apiCall(t, "GET", a.url+"/private", "Bearer "+tok, &http.Cookie{Name: "authjs.session-token", Value: "junk"})
	if resp.StatusCode != http.StatusOK || len(resp.Header.Values("Set-Cookie")) != 0 {
		t.Fatalf("good token, bad cookie: %d %q %v", resp.StatusCode, body, resp.Header.Values("Set-Cookie"))
	}

	// Never from the query string (RFC 6750 §2.3 is not supported): the
	// request is an anonymous browser request.
	resp, _ = apiCall(t, "GET", a.url+"/private?"+url.Values{"access_token": {tok}}.Encode(), "")
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("access_token in the query: %d, want the sign-in redirect", resp.StatusCode)
	}
	// Another scheme is not a Bearer request: cookies decide.
	resp, body = apiCall(t, "GET", a.url+"/private", "Basic dXNlcjpwYXNz", good)
	if resp.StatusCode != http.StatusOK || body != "hello alice@example.com" {
		t.Fatalf("Basic header with a session cookie: %d %q", resp.StatusCode, body)
	}

	// The auth routes read cookies only: GET /session with a Bearer token
	// is null, and a Bearer token does not pass the CSRF check of
	// sign-out or of a session update.
	if resp, body := apiCall(t, "GET", a.url+"/auth/session", "Bearer "+tok); strings.TrimSpace(body) != "null" {
		t.Fatalf("GET /session with Bearer only: %d %q", resp.StatusCode, body)
	}
	req, _ := http.NewRequest("POST", a.url+"/auth/signout", strings.NewReader("callbackUrl=%2F"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tok)
	out, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out.Body.Close()
	if loc := out.Header.Get("Location"); !strings.Contains(loc, "MissingCSRF") {
		t.Fatalf("sign-out with only a Bearer token went to %q (%d), want MissingCSRF", loc, out.StatusCode)
	}
	req, _ = http.NewRequest("POST", a.url+"/auth/session", strings.NewReader(`{"data":{"x":1}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	if up, err := http.DefaultClient.Do(req); err != nil || up.StatusCode != http.StatusBadRequest {
		t.Fatalf("session update with only a Bearer token: %v %v", up, err)
	}
	// ... and the session is still there.
	if resp, body := apiCall(t, "GET", a.url+"/private", "Bearer "+tok); resp.StatusCode != http.StatusOK {
		t.Fatalf("after the refused sign-out: %d %q", resp.StatusCode, body)
	}
}

func TestBearerJWT(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Session.Bearer = true })
	_, tok := signedInToken(t, a)
	if strings.Count(tok, ".") != 4 {
		t.Fatalf("JWT strategy token %q is not a compact JWE", tok)
	}
	bearerRules(t, a, tok)
}

func TestBearerDatabase(t *testing.T) {
	for _, kind := range stores {
		t.Run(kind, func(t *testing.T) {
			st := openStore(t, kind)
			a, _ := newDBApp(t, st, authtest.Options{}, func(c *gatehouse.Config) { c.Session.Bearer = true })
			b, tok := signedInToken(t, a)
			if strings.Contains(tok, ".") {
				t.Fatalf("database token %q looks like a JWE", tok)
			}
			bearerRules(t, a, tok)

			// Signing out in the browser ends the session for the API too.
			out := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
			out.Body.Close()
			resp, body := apiCall(t, "GET", a.url+"/private", "Bearer "+tok)
			wantInvalidToken(t, "after sign-out", resp, body)
		})
	}
}

func TestBearerOff(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	_, tok := signedInToken(t, a)
	// Without Session.Bearer the header means nothing: a browser request
	// without cookies, sent to sign in.
	resp, _ := apiCall(t, "GET", a.url+"/private", "Bearer "+tok)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("WWW-Authenticate") != "" {
		t.Fatalf("Bearer with Session.Bearer off: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

// TestSessionToken: a server-side page gets the token of its user with
// SessionToken and calls an API with it, as a Next.js server would with
// Auth.js's getToken({raw: true}).
func TestSessionToken(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Session.Bearer = true })
	b, tok := signedInToken(t, a)

	mux := http.NewServeMux()
	mux.HandleFunc("/call-api", func(w http.ResponseWriter, r *http.Request) {
		t := a.h.SessionToken(r)
		if t == "" {
			http.Error(w, "no session", http.StatusUnauthorized)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), "GET", a.url+"/private", nil)
		req.Header.Set("Authorization", "Bearer "+t)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	})
	front := httptest.NewServer(a.h.Middleware(mux))
	defer front.Close()

	// The browser's cookies are per host, so they reach the front end on
	// its own port.
	resp := b.Get(front.URL + "/call-api")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello alice@example.com" {
		t.Fatalf("front end → API: %d %q", resp.StatusCode, body)
	}
	// SessionToken is the cookie's token; nothing without a session.
	resp, body2 := apiCall(t, "GET", front.URL+"/call-api", "")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d %q", resp.StatusCode, body2)
	}
	_ = tok
}

// TestStoreOutage: while the database does not answer, a signed-in user
// is neither shown as signed out nor invited to sign in: GET
// {base}/session and a Require page answer 503 with Retry-After, the
// application can tell it from "nobody" (SessionErr), and no database
// text reaches the browser. When the database is back, the session is.
// Before: 200 null, and a redirect to the sign-in page.
func TestStoreOutage(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	var seen atomic.Value
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Adapter = store
		cfg.Session.Strategy = gatehouse.StrategyDatabase
	})
	b := newBrowser(t)
	signedIn(t, a, b)

	store.down.Store(true)
	for _, path := range []string{"/auth/session", "/private"} {
		resp := b.Get(a.url + path)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s with the database down: %d (Retry-After %q) %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		if strings.Contains(string(body), "10.0.0.5") || strings.Contains(string(body), "refused") {
			t.Fatalf("%s shows the database error: %s", path, body)
		}
	}
	// The application sees why there is no session.
	probe := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store([2]any{gatehouse.SessionFrom(r.Context()) == nil, gatehouse.SessionErr(r.Context())})
	}))
	probe.ServeHTTP(httptest.NewRecorder(), b.appRequest(a))
	got := seen.Load().([2]any)
	if err, _ := got[1].(error); got[0] != true || !errors.Is(err, gatehouse.ErrStoreUnavailable) {
		t.Fatalf("SessionFrom nil %v, SessionErr %v; want nil and ErrStoreUnavailable", got[0], got[1])
	}

	store.down.Store(false)
	if s := b.session(a); s == nil {
		t.Fatal("the session did not come back with the database")
	}
}

// TestMiddlewareCSRFCookie: the Middleware gives a browser without a
// CSRF cookie one on the application's pages (their forms need it), but
// not on the handler's own routes, which make one only when they need it:
// a script polling {base}/session gets no cookie per request.
func TestMiddlewareCSRFCookie(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	sets := func(path string) bool {
		resp, err := http.Get(a.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for _, c := range resp.Cookies() {
			if c.Name == "authjs.csrf-token" {
				return true
			}
		}
		return false
	}
	if !sets("/") {
		t.Error("an application page gave no CSRF cookie")
	}
	if sets("/auth/session") {
		t.Error("GET /auth/session set a CSRF cookie")
	}
	if !sets("/auth/csrf") || !sets("/auth/signin") {
		t.Error("the handler's CSRF route or sign-in page gave no CSRF cookie")
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
		r := b.Get(a.url + "/private")
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
		out := b.Post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}})
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

// TestSessionReadWritesNoCookie: reading a JWT session (GET
// {base}/session, a protected page) sets no cookie until UpdateAge has
// passed; then the refreshed cookie is written.
func TestSessionReadWritesNoCookie(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	for _, path := range []string{"/auth/session", "/private", "/auth/session"} {
		resp := b.Get(a.url + path)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(resp.Header.Values("Set-Cookie")) != 0 {
			t.Fatalf("GET %s: %d, Set-Cookie %q", path, resp.StatusCode, resp.Header.Values("Set-Cookie"))
		}
	}

	rolling := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Session.UpdateAge = time.Nanosecond })
	b = newBrowser(t)
	b.signIn(rolling, "dev", "/")
	resp := b.Get(rolling.url + "/auth/session")
	resp.Body.Close()
	if c := resp.Header.Get("Set-Cookie"); resp.StatusCode != 200 || c == "" {
		t.Fatalf("after UpdateAge: %d with no refreshed cookie", resp.StatusCode)
	}
}

// TestSessionJSONCache: the session JSON is encoded once per session, but
// never handed to another user, and a Session callback's additions are
// encoded on every request.
func TestSessionJSONCache(t *testing.T) {
	users := []authtest.User{
		{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
		{Subject: "bob", Name: "Bob", Email: "bob@example.com", EmailVerified: true},
	}
	a := newApp(t, authtest.Options{Users: users}, nil)
	for _, u := range users {
		b := newBrowser(t)
		resp := b.Post(a.url+"/auth/signin/dev?login_hint="+u.Subject, url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
		b.Follow(resp).Body.Close()
		for range 3 {
			s := b.session(a)
			if user, _ := s["user"].(map[string]any); user["email"] != u.Email || user["name"] != u.Name {
				t.Fatalf("%s's browser got session %v", u.Subject, s)
			}
		}
		r := b.Get(a.url + "/auth/session")
		r.Body.Close()
		h := r.Header
		if h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "no-store" || len(h) != 4 {
			t.Fatalf("cached answer's headers: %v", h)
		}
	}

	var n atomic.Int64
	counted := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Callbacks.Session = func(_ context.Context, p gatehouse.SessionParams) (*gatehouse.Session, error) {
			s := p.Session
			s.Extra = map[string]any{"n": n.Add(1)}
			return &s, nil
		}
	})
	b := newBrowser(t)
	b.signIn(counted, "dev", "/")
	first, second := b.session(counted), b.session(counted)
	if first["n"] == second["n"] || first["n"] == nil {
		t.Fatalf("the Session callback's claim was not encoded per request: %v then %v", first["n"], second["n"])
	}
	r := b.Get(counted.url + "/auth/session")
	r.Body.Close()
	if h := r.Header; h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("encoded answer's headers: %v", h)
	}
}

// TestMiddlewareOwnRoutesReadAtUse: behind the Middleware, a request to
// the handler's own routes reads the database session only when
// something asks for it: none for {base}/providers, one for
// {base}/session (the route and a wrapper that asks SessionFrom share
// it), one for a page of the application.
func TestMiddlewareOwnRoutesReadAtUse(t *testing.T) {
	spy := newSpy(memory.New())
	var wrapped atomic.Pointer[gatehouse.Session]
	a := newApp(t, authtest.Options{}, func(cfg *gatehouse.Config) { cfg.Adapter = spy })
	b := newBrowser(t)
	b.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	h := a.h.Middleware(siteMux(a.h))
	wrapper := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wrapped.Store(gatehouse.SessionFrom(r.Context()))
		a.h.ServeHTTP(w, r)
	}))
	for _, c := range []struct {
		h     http.Handler
		path  string
		reads int
	}{
		{h, "/auth/providers", 0},
		{h, "/auth/csrf", 0},
		{h, "/auth/session", 1},
		{h, "/private", 1},
		{wrapper, "/auth/session", 1},
		{wrapper, "/auth/providers", 1},
	} {
		spy.reset()
		r := httptest.NewRequest("GET", a.url+c.path, nil)
		for _, ck := range b.Client.Jar.Cookies(u) {
			r.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, r)
		if w.Code != 200 || spy.count("GetSessionAndUser") != c.reads {
			t.Errorf("GET %s: %d, %d session reads, want 200 and %d", c.path, w.Code, spy.count("GetSessionAndUser"), c.reads)
		}
		if c.path == "/auth/session" && !strings.Contains(w.Body.String(), `"email"`) {
			t.Errorf("GET %s: %s", c.path, w.Body)
		}
	}
	if s := wrapped.Load(); s == nil || s.User.Email == "" {
		t.Errorf("a wrapper of the handler got session %+v", s)
	}
}

// TestMiddlewareSessionPerRequest: the session the Middleware read for a
// request is that request's own, held in its state: one read for bob
// after one for alice leaves alice's session as it was, for a page and
// for the handler's own routes (read at their first use), with JWT and
// with database sessions behind the cookie cache.
func TestMiddlewareSessionPerRequest(t *testing.T) {
	for _, database := range []bool{false, true} {
		a := newApp(t, twoUsers, func(cfg *gatehouse.Config) {
			if database {
				cfg.Adapter = memory.New()
				cfg.Session.CookieCache.Enabled = true
			}
		})
		alice, bob := newBrowser(t), newBrowser(t)
		alice.signInUser(a, "alice")
		bob.signInUser(a, "bob")
		u, _ := url.Parse(a.url)
		var got []*gatehouse.Session
		h := a.h.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = append(got, gatehouse.SessionFrom(r.Context()))
		}))
		for _, path := range []string{"/private", "/auth/session"} {
			got = got[:0]
			for _, b := range []*browser{alice, bob, alice} {
				r := httptest.NewRequest("GET", a.url+path, nil)
				for _, ck := range b.Client.Jar.Cookies(u) {
					r.AddCookie(ck)
				}
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
			if len(got) != 3 || got[0] == nil || got[1] == nil || got[2] == nil ||
				got[0].User.Email != "alice@example.com" || got[1].User.Email != "bob@example.com" || got[2].User.Email != "alice@example.com" {
				t.Fatalf("database %v, GET %s: sessions %+v", database, path, got)
			}
			if got[0] == got[2] {
				t.Errorf("database %v, GET %s: two requests share one *Session", database, path)
			}
		}
	}
}

// TestCookieCacheReadWritesNothing: while the cookie cache's copy is
// fresh, a session read through it reads no database row and sets no
// cookie: nothing that did not change is sealed or sent again. The same
// read through the Middleware costs the same. With organizations on,
// whether or not one is active, the read asks the store nothing either:
// the copy holds the active organization.
func TestCookieCacheReadWritesNothing(t *testing.T) {
	for _, orgs := range []string{"off", "none", "active"} {
		t.Run("organizations="+orgs, func(t *testing.T) {
			st := openStore(t, "memory")
			a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
				cfg.Session.CookieCache = gatehouse.CookieCache{Enabled: true}
				if orgs != "off" {
					cfg.Organizations = organization.Enable(organization.Config{})
					cfg.Adapter = orgSpy{st.spy, st.raw.(organization.Store)}
				}
			})
			b := newBrowser(t)
			b.signIn(a, "dev", "/")
			b.session(a) // the copy is written by now
			want := ""
			if orgs == "active" {
				want = b.activate(a, "Acme")
			}
			if b.cookie(a, sessionDataCookie) == "" {
				t.Fatal("no cookie cache written")
			}
			u, _ := url.Parse(a.url)
			st.spy.reset()
			for _, h := range []http.Handler{a.h, a.h.Middleware(a.h)} {
				for range 3 {
					r := httptest.NewRequest("GET", a.url+"/auth/session", nil)
					for _, ck := range b.Client.Jar.Cookies(u) {
						r.AddCookie(ck)
					}
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != 200 || !strings.Contains(w.Body.String(), "alice@example.com") {
						t.Fatalf("%d %s", w.Code, w.Body)
					}
					var got struct{ ActiveOrganizationID string }
					if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.ActiveOrganizationID != want {
						t.Errorf("activeOrganizationId %q, %v; want %q", got.ActiveOrganizationID, err, want)
					}
					if c := w.Header().Values("Set-Cookie"); len(c) != 0 {
						t.Fatalf("a read through a fresh copy set %q", c)
					}
				}
			}
			for _, m := range []string{"GetSessionAndUser", "ActiveOrganization"} {
				if n := st.spy.count(m); n != 0 {
					t.Errorf("%d %s through a fresh copy, want 0", n, m)
				}
			}
		})
	}
}

// orgSpy is a spy with the organization store of the adapter it wraps,
// counting ActiveOrganization.
type orgSpy struct {
	*spyAdapter
	organization.Store
}

func (s orgSpy) ActiveOrganization(ctx context.Context, key string) (string, error) {
	return spied(s.spyAdapter, "ActiveOrganization", func() (string, error) { return s.Store.ActiveOrganization(ctx, key) })
}

// activate creates an organization named name, makes it this browser's
// active organization, and returns its id.
func (b *browser) activate(a *app, name string) string {
	b.T.Helper()
	csrf := b.csrf(a)
	resp := b.Post(a.url+"/auth/organizations", url.Values{"csrfToken": {csrf}, "name": {name}})
	var org struct{ ID string }
	err := json.NewDecoder(resp.Body).Decode(&org)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || err != nil {
		b.T.Fatalf("create an organization: %d %v", resp.StatusCode, err)
	}
	resp = b.Post(a.url+"/auth/organizations/active", url.Values{"csrfToken": {csrf}, "organizationId": {org.ID}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.T.Fatalf("activate: %d", resp.StatusCode)
	}
	return org.ID
}
