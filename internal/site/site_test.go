package site

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/limit"
)

// The base follows the request's Host and scheme, X-Forwarded-* only when
// trusted, a malformed host never, and a fixed URL always wins.
func TestFor(t *testing.T) {
	for _, c := range []struct {
		name                 string
		trust                bool
		host, proto, fwdHost string
		https                bool
		want                 string
		secure               bool
	}{
		{"plain", false, "app.test:8080", "", "", false, "http://app.test:8080", false},
		{"tls", false, "app.test", "", "", true, "https://app.test", true},
		{"forwarded, untrusted", false, "internal:80", "https", "evil.test", false, "http://internal:80", false},
		{"forwarded, trusted", true, "internal:80", "https", "app.test", false, "https://app.test", true},
		{"forwarded host malformed", true, "app.test", "", "evil.test/x", false, "http://app.test", false},
		{"host malformed", false, "a b", "", "", false, "http://localhost", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Resolver{Path: "/auth", TrustHost: c.trust}
			r := httptest.NewRequest("GET", "/auth/session", nil)
			r.Host = c.host
			if c.https {
				r.TLS = &tls.ConnectionState{}
			}
			if c.proto != "" {
				r.Header.Set("X-Forwarded-Proto", c.proto)
			}
			if c.fwdHost != "" {
				r.Header.Set("X-Forwarded-Host", c.fwdHost)
			}
			b := s.For(r)
			if b.Origin != c.want || b.Cookies.Secure != c.secure || b.URL("signin") != c.want+"/auth/signin" {
				t.Fatalf("base %q secure %v url %q, want %q secure %v", b.Origin, b.Cookies.Secure, b.URL("signin"), c.want, c.secure)
			}
			if again := s.For(r); again != b {
				t.Fatal("a second request from one origin built a new base")
			}
		})
	}
	s := &Resolver{Path: "/auth", TrustHost: true}
	fixed := s.Fix("https", "app.test")
	r := httptest.NewRequest("GET", "/auth/session", nil)
	r.Header.Set("X-Forwarded-Host", "evil.test")
	if b := s.For(r); b != fixed || !b.Same(fixed) || b.Same(s.New("https", "evil.test")) {
		t.Fatalf("with a fixed URL the base is %q", b.Origin)
	}
}

func testSite(t *testing.T) *Site {
	t.Helper()
	csrf, err := checks.NewCSRF([]string{"site-test-secret-site-test-secret-0123"})
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := checks.NewSealer([]string{"site-test-secret-site-test-secret-0123"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Site{Resolver: &Resolver{Path: "/auth"}, CSRF: csrf, Sealer: sealer, CrossOrigin: http.NewCrossOriginProtection(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.Fix("https", "app.test")
	return s
}

// CallbackURL keeps the browser on this origin, whatever the request or
// the Redirect callback asks for.
func TestCallbackURL(t *testing.T) {
	s := testSite(t)
	r := httptest.NewRequest(http.MethodGet, "https://app.test/auth/signin", nil)
	for raw, want := range map[string]string{
		"":                        "https://app.test/",
		"/reports?x=1":            "https://app.test/reports?x=1",
		"https://app.test/a":      "https://app.test/a",
		"https://evil.test/a":     "https://app.test/",
		"//evil.test/a":           "https://app.test/",
		"/\\evil.test":            "https://app.test/",
		"javascript:alert(1)":     "https://app.test/",
		"https://app.test.evil/a": "https://app.test/",
	} {
		if got := s.CallbackURL(r, raw); got != want {
			t.Errorf("CallbackURL(%q) = %q, want %q", raw, got, want)
		}
	}
	// The URL of a sign-in start, on this origin, costs no allocation.
	if n := testing.AllocsPerRun(100, func() { s.CallbackURL(r, "https://app.test/reports") }); n != 0 {
		t.Errorf("a same-origin callback URL: %v allocations, want 0", n)
	}
	// A Redirect callback's answer is checked as well.
	s.RedirectPolicy = func(string, string) string { return "https://evil.test/" }
	if got := s.CallbackURL(r, "/reports"); got != "https://app.test/" {
		t.Errorf("a callback sending off-site: %q", got)
	}
}

// ErrorTypeParam lets only the shape of an error type through.
func TestErrorTypeParam(t *testing.T) {
	for in, want := range map[string]string{
		"InvalidCheck": "InvalidCheck", "": "", "<script>": "Unknown", "a b": "Unknown",
		strings.Repeat("A", 65): "Unknown", "Ünknown": "Unknown",
	} {
		if got := ErrorTypeParam(in); got != want {
			t.Errorf("ErrorTypeParam(%q) = %q, want %q", in, got, want)
		}
	}
}

// Fail sends errors the user can retry to the sign-in page, keeping where
// they were going (same-origin, path only), and the others to the error
// page; Events.Failure is told, and nothing of the cause reaches the URL.
func TestFail(t *testing.T) {
	for _, c := range []struct {
		name     string
		e        *autherr.Error
		callback string
		errPage  string
		want     string
	}{
		{"error page", autherr.New(autherr.InvalidCheck, "state_mismatch", "dev", "checks", errors.New("secret cause")), "", "",
			"/auth/error?code=state_mismatch&error=InvalidCheck"},
		{"the application's error page", autherr.New(autherr.InvalidCheck, "state_mismatch", "dev", "checks", nil), "", "/oops",
			"/oops?code=state_mismatch&error=InvalidCheck"},
		{"sign-in page, back to the form's callbackUrl", autherr.New(autherr.CredentialsSignin, "", "creds", "authorize", nil), "https://app.test/reports", "",
			"/auth/signin?callbackUrl=%2Freports&error=CredentialsSignin"},
		{"sign-in page, an off-site callbackUrl dropped", autherr.New(autherr.CredentialsSignin, "", "creds", "authorize", nil), "https://evil.test/x", "",
			"/auth/signin?error=CredentialsSignin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testSite(t)
			var told []*autherr.Error
			s.Failure = func(_ context.Context, e *autherr.Error) { told = append(told, e) }
			s.Pages.Error = c.errPage
			r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/callback/x", strings.NewReader(url.Values{"callbackUrl": {c.callback}}.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			_ = r.ParseForm()
			w := httptest.NewRecorder()
			s.Fail(w, r, c.e)
			if got := w.Header().Get("Location"); got != c.want {
				t.Fatalf("Location %q, want %q", got, c.want)
			}
			if strings.Contains(w.Header().Get("Location"), "secret") || len(told) != 1 || *told[0] != *c.e {
				t.Fatal("the cause leaked, or Failure was not told")
			}
		})
	}
}

// A refused rate limit answers 429 with Retry-After in whole seconds, as
// JSON {url} for a client that asked for it; a failing limiter refuses.
func TestRateLimited(t *testing.T) {
	s := testSite(t)
	s.ClientIP = func(*http.Request) string { return "192.0.2.1" }
	s.RateLimit = limit.NewMemory(1, time.Minute)
	r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/signin/dev", nil)
	if s.RateLimited(httptest.NewRecorder(), r, "dev") {
		t.Fatal("the first request was refused")
	}
	r.Header.Set("X-Auth-Return-Redirect", "1")
	w := httptest.NewRecorder()
	if !s.RateLimited(w, r, "dev") || w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Fatalf("second request: %d %v", w.Code, w.Header())
	}
	var body map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body["url"] != "/auth/signin?error=TooManyRequests" {
		t.Fatalf("body %s (%v)", w.Body, err)
	}
	s.RateLimit = failing{}
	if !s.RateLimited(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil), "dev") {
		t.Fatal("a failing limiter let the request through")
	}
}

type failing struct{ limit.None }

func (failing) Reserve(context.Context, string) (time.Duration, error) { return 0, errors.New("down") }

// A flood of refusals costs less than the work it refuses: a fixed short
// text for programs, one page rendered once for browsers (with the page's
// security headers), and one log line and one Failure event for the
// first refusal of the window; the rest are counted, not reported.
func TestRefusalsAreCheap(t *testing.T) {
	s := testSite(t)
	var log bytes.Buffer
	s.Logger = slog.New(slog.NewTextHandler(&log, nil))
	told := 0
	s.Failure = func(context.Context, *autherr.Error) { told++ }
	s.ClientIP = func(*http.Request) string { return "192.0.2.1" }
	s.RateLimit = limit.NewMemory(1, time.Minute)
	var pages [][]byte
	for i := range 1000 {
		r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/signin/dev", nil)
		if i%2 == 0 {
			r.Header.Set("Accept", "text/html")
		}
		w := httptest.NewRecorder()
		limited := s.RateLimited(w, r, "dev")
		switch {
		case i == 0:
			if limited {
				t.Fatal("the first request was refused")
			}
			continue
		case !limited || w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "":
			t.Fatalf("request %d: %d %v", i, w.Code, w.Header())
		case i%2 == 1:
			if w.Body.String() != "Too many requests. Wait, then try again (Retry-After says how long).\n" || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
				t.Fatalf("a program's refusal: %q", w.Body)
			}
		default:
			if !strings.Contains(w.Body.String(), "<!doctype html>") || w.Header().Get("Content-Security-Policy") == "" || w.Header().Get("Cache-Control") != "no-store" {
				t.Fatalf("a browser's refusal: %v\n%s", w.Header(), w.Body)
			}
			pages = append(pages, w.Body.Bytes())
		}
	}
	if lines := strings.Count(log.String(), "\n"); lines != 1 || told != 1 {
		t.Fatalf("999 refusals wrote %d log lines and told Failure %d times, want 1 and 1:\n%s", lines, told, log.String())
	}
	if len(s.tooMany) != 1 || !bytes.Equal(pages[0], pages[len(pages)-1]) {
		t.Fatal("the 429 page is not the one rendered once")
	}
}

// TestLang checks the language of the pages: Language's answer when
// there are messages for it, else the Accept-Language header, else
// English; the 429 answers follow it.
func TestLang(t *testing.T) {
	s := testSite(t)
	req := func(accept string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "https://app.test/auth/signin", nil)
		if accept != "" {
			r.Header.Set("Accept-Language", accept)
		}
		return r
	}
	for _, c := range []struct {
		language func(*http.Request) string
		accept   string
		want     string
	}{
		{nil, "", "en"},
		{nil, "de-CH, en;q=0.5", "de"},
		{func(*http.Request) string { return "" }, "de", "de"},
		{func(*http.Request) string { return "en" }, "de", "en"},
		{func(*http.Request) string { return "de-AT" }, "en", "de"},
		{func(*http.Request) string { return "xx" }, "de", "de"},
	} {
		s.Language = c.language
		if got := s.Lang(req(c.accept)).Tag; got != c.want {
			t.Errorf("Language %v, Accept-Language %q: %q, want %q", c.language != nil, c.accept, got, c.want)
		}
	}
	s.Language = nil
	s.ClientIP = func(*http.Request) string { return "192.0.2.2" }
	s.RateLimit = limit.NewMemory(1, time.Minute)
	s.RateLimited(httptest.NewRecorder(), req("de"), "dev")
	w := httptest.NewRecorder()
	s.RateLimited(w, req("de"), "dev")
	if !strings.HasPrefix(w.Body.String(), "Zu viele Anfragen.") {
		t.Errorf("a German program's refusal: %q", w.Body)
	}
	r := req("de")
	r.Header.Set("Accept", "text/html")
	w = httptest.NewRecorder()
	s.RateLimited(w, r, "dev")
	if b := w.Body.String(); !strings.Contains(b, `<html lang="de"`) || !strings.Contains(b, "Zu viele fehlgeschlagene Versuche.") {
		t.Errorf("a German browser's refusal:\n%s", b)
	}
}

// The identifier kept after a refused form travels sealed: the cookie
// does not show it, it comes back only for the provider it was typed for,
// and a changed cookie gives nothing back.
func TestKeepTypedSealed(t *testing.T) {
	s := testSite(t)
	const who = "carol@example.com"
	keep := func() *http.Cookie {
		w := httptest.NewRecorder()
		s.KeepTyped(w, httptest.NewRequest(http.MethodPost, "https://app.test/auth/callback/credentials", nil), "credentials", "email", who)
		c := w.Result().Cookies()
		if len(c) != 1 {
			t.Fatalf("cookies %v", c)
		}
		return c[0]
	}
	take := func(value string) (string, string, string) {
		r := httptest.NewRequest(http.MethodGet, "https://app.test/auth/signin", nil)
		r.AddCookie(&http.Cookie{Name: keep().Name, Value: value})
		return s.TakeTyped(httptest.NewRecorder(), r)
	}
	c := keep()
	if strings.Contains(c.Value, "carol") || strings.Contains(c.Value, url.QueryEscape(who)) {
		t.Fatalf("the identifier is readable in the cookie: %q", c.Value)
	}
	if p, f, v := take(c.Value); p != "credentials" || f != "email" || v != who {
		t.Fatalf("TakeTyped = %q %q %q", p, f, v)
	}
	i := strings.LastIndexByte(c.Value, '.')
	for name, v := range map[string]string{
		"another provider": "password" + c.Value[i:],
		"changed":          changedAt(c.Value, len(c.Value)-20),
		"unsealed":         url.Values{"p": {"credentials"}, "f": {"email"}, "v": {who}}.Encode(),
	} {
		if _, _, got := take(v); got != "" {
			t.Errorf("%s: TakeTyped gave %q", name, got)
		}
	}
}

// changedAt returns s with its i-th character replaced by another
// base64url character, never the same one.
func changedAt(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}
