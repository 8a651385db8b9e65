package gatehouse_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
)

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
	for name, h := range map[string]string{
		"tampered":  "Bearer " + tok[:len(tok)-2] + "xx",
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
			out := b.post(a.url+"/auth/signout", url.Values{"csrfToken": {b.csrf(a)}, "callbackUrl": {"/"}})
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
	resp := b.get(front.URL + "/call-api")
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

// BenchmarkMiddlewareBearer is BenchmarkMiddlewareProtected with
// Session.Bearer on: a browser request (cookie, no Authorization header)
// and an API request (the same token as a Bearer header).
func BenchmarkMiddlewareBearer(b *testing.B) {
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.Session.Bearer = true })
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	cookies := br.c.Jar.Cookies(u)
	h := a.h.Middleware(a.h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(gatehouse.SessionFrom(r.Context()).User.ID))
	})))
	for _, tc := range []struct {
		name string
		r    *http.Request
	}{
		{"cookie", request("GET", a.url+"/private", cookies, "")},
		{"bearer", func() *http.Request {
			r := request("GET", a.url+"/private", nil, "")
			r.Header.Set("Authorization", "Bearer "+br.cookie(a, "authjs.session-token"))
			return r
		}()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, tc.r)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
