package gatehouse_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// TestWrongRequests: a path under the base path that is no route answers
// 404, a route asked with the wrong method 405 with Allow; a browser
// (Accept: text/html) gets a small page in the built-in look, anything
// else JSON. Failed before: both were 400 "Bad request." JSON, to a
// browser too, and without Allow.
func TestWrongRequests(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	for _, c := range []struct {
		method, path, allow string
		status              int
	}{
		{"GET", "/auth/nope", "", 404},
		{"GET", "/auth/", "", 404},
		{"GET", "/auth", "", 404},
		{"GET", "/auth/signin/dev/more", "", 404},
		{"GET", "/auth/nobody/signup", "", 404},    // no password-accounts provider "nobody"
		{"GET", "/auth/two-factor/setup", "", 404}, // two-factor sign-in is off
		{"POST", "/auth/two-factor/bogus", "", 404},
		{"PUT", "/auth/session", "GET, POST", 405},
		{"POST", "/auth/csrf", "GET", 405},
		{"DELETE", "/auth/signin/dev", "GET, POST", 405},
		{"GET", "/auth/backchannel-logout/dev", "POST", 405},
	} {
		for _, html := range []bool{false, true} {
			req := httptest.NewRequest(c.method, a.url+c.path, nil)
			if html {
				req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
			}
			rec := httptest.NewRecorder()
			a.h.ServeHTTP(rec, req)
			if rec.Code != c.status || rec.Header().Get("Allow") != c.allow {
				t.Errorf("%s %s (html %v): %d Allow %q, want %d Allow %q", c.method, c.path, html, rec.Code, rec.Header().Get("Allow"), c.status, c.allow)
			}
			ct := rec.Header().Get("Content-Type")
			if html {
				if !strings.HasPrefix(ct, "text/html") || rec.Header().Get("Content-Security-Policy") == "" ||
					!strings.Contains(rec.Body.String(), "<title>") || !strings.Contains(rec.Body.String(), "/auth/signin") {
					t.Errorf("%s %s to a browser: %s %q", c.method, c.path, ct, rec.Body)
				}
				continue
			}
			var v struct{ Message string }
			if ct != "application/json" || json.Unmarshal(rec.Body.Bytes(), &v) != nil || v.Message == "" {
				t.Errorf("%s %s: %s %q, want a JSON message", c.method, c.path, ct, rec.Body)
			}
		}
	}
}

// TestSignInPageOfProvider: GET {base}/signin/{provider} is the sign-in
// page with that provider alone; an id of no provider gets the whole page.
// Failed before: 400 "Bad request.".
func TestSignInPageOfProvider(t *testing.T) {
	a := newApp(t, authtest.Options{}, moreProviders(2))
	page := func(path string) string {
		t.Helper()
		resp := newBrowser(t).get(a.url + path)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		return string(body)
	}
	if p := page("/auth/signin/dev"); !strings.Contains(p, "/auth/signin/dev") || strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of dev does not show dev alone:\n%s", p)
	}
	if p := page("/auth/signin/p001"); strings.Contains(p, "/auth/signin/dev") || !strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of p001 does not show p001 alone:\n%s", p)
	}
	if p := page("/auth/signin/nobody"); !strings.Contains(p, "/auth/signin/dev") || !strings.Contains(p, "/auth/signin/p001") {
		t.Errorf("the page of an unknown id does not show every provider:\n%s", p)
	}
}
