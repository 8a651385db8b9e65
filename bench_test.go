package gatehouse_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
)

// benchApp is a signed-in browser's cookies against an in-process app.
func benchApp(b *testing.B) (*app, []*http.Cookie) {
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, nil)
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	br.signIn(a, "dev", "/")
	u, _ := url.Parse(a.url)
	return a, br.c.Jar.Cookies(u)
}

func request(method, target string, cookies []*http.Cookie, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for _, c := range cookies {
		r.AddCookie(c)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return r
}

// BenchmarkBareJSON is the ceiling: a net/http handler answering the same
// session JSON with no auth at all.
func BenchmarkBareJSON(b *testing.B) {
	s := gatehouse.Session{Expires: time.Now().Add(time.Hour)}
	s.User.ID, s.User.Name, s.User.Email = "dev:alice", "Alice", "alice@example.com"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s)
	})
	r := request("GET", "http://app/auth/session", nil, "")
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
}

// BenchmarkSessionRead is GET {base}/session with a valid JWT-strategy cookie.
func BenchmarkSessionRead(b *testing.B) {
	a, cookies := benchApp(b)
	r := request("GET", a.url+"/auth/session", cookies, "")
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		a.h.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "alice@example.com") {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

// BenchmarkMiddlewareProtected is a protected route: Middleware reads the
// session, Require lets it through.
func BenchmarkMiddlewareProtected(b *testing.B) {
	a, cookies := benchApp(b)
	h := a.h.Middleware(a.h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(gatehouse.SessionFrom(r.Context()).User.ID))
	})))
	r := request("GET", a.url+"/private", cookies, "")
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkSignInRedirect is POST {base}/signin/{provider} with a valid
// CSRF pair; discovery is cached after the first sign-in.
func BenchmarkSignInRedirect(b *testing.B) {
	a, cookies := benchApp(b)
	var token string
	for _, c := range cookies {
		if c.Name == "authjs.csrf-token" {
			token, _, _ = strings.Cut(c.Value, "|")
		}
	}
	body := url.Values{"csrfToken": {token}, "callbackUrl": {"/private"}}.Encode()
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		a.h.ServeHTTP(w, request("POST", a.url+"/auth/signin/dev", cookies, body))
		if w.Code != http.StatusSeeOther {
			b.Fatal(w.Code, w.Header())
		}
	}
}
