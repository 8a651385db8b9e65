// Package sitetest holds what the root package's tests and the interop
// module's share: the browser that drives a site using Gatehouse, the
// test defaults of the site's Config, and the keys of a client or
// provider.
package sitetest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse"
)

// Browser keeps cookies and follows redirects one at a time, like a
// browser with a cookie jar. Its requests fail the test T when they
// cannot be sent.
type Browser struct {
	T      testing.TB
	Client *http.Client
	// Hops are the URLs Follow went to, in order, for failure messages.
	Hops []string
}

// NewBrowser returns a Browser with an empty cookie jar that does not
// follow redirects by itself.
func NewBrowser(t testing.TB) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{T: t, Client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Do sends req with b's cookies and keeps those of the answer.
func (b *Browser) Do(req *http.Request) *http.Response {
	b.T.Helper()
	resp, err := b.Client.Do(req)
	if err != nil {
		b.T.Fatal(err)
	}
	return resp
}

// Follow follows redirects from resp, up to ten, and returns the last
// response.
func (b *Browser) Follow(resp *http.Response) *http.Response {
	b.T.Helper()
	for i := 0; i < 10 && resp.StatusCode >= 300 && resp.StatusCode < 400; i++ {
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if err != nil {
			b.T.Fatal(err)
		}
		resp.Body.Close()
		b.Hops = append(b.Hops, loc.String())
		resp = b.Get(loc.String())
	}
	return resp
}

// Get sends a GET request for u.
func (b *Browser) Get(u string) *http.Response {
	b.T.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return b.Do(req)
}

// Post posts form to u, URL-encoded.
func (b *Browser) Post(u string, form url.Values) *http.Response {
	b.T.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.Do(req)
}

// Request returns a GET request for u carrying b's cookies for site, as
// an application's handler would receive it.
func (b *Browser) Request(site, u string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, u, nil)
	su, _ := url.Parse(site)
	for _, c := range b.Client.Jar.Cookies(su) {
		r.AddCookie(c)
	}
	return r
}

// GetJSON sends a GET request for u and decodes its JSON answer into v.
func (b *Browser) GetJSON(u string, v any) *http.Response {
	b.T.Helper()
	resp := b.Get(u)
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		b.T.Fatalf("GET %s: %v", u, err)
	}
	return resp
}

// CSRF returns the CSRF token of the Handler at authURL (Config.URL),
// setting its cookie in b.
func (b *Browser) CSRF(authURL string) string {
	b.T.Helper()
	var v struct{ CSRFToken string }
	if b.GetJSON(authURL+"/csrf", &v); len(v.CSRFToken) != 43 { // 256 bits, base64url
		b.T.Fatalf("csrf token %q", v.CSRFToken)
	}
	return v.CSRFToken
}

// Session returns the session JSON of the Handler at authURL: nil
// without a session.
func (b *Browser) Session(authURL string) map[string]any {
	b.T.Helper()
	var s map[string]any
	b.GetJSON(authURL+"/session", &s)
	return s
}

// SignIn posts the sign-in form of provider at the Handler at authURL,
// with callbackURL, and follows the flow to its end (see PostSignIn).
func (b *Browser) SignIn(authURL, provider, callbackURL string) (*http.Response, string) {
	b.T.Helper()
	return b.PostSignIn(authURL+"/signin/"+provider, url.Values{"csrfToken": {b.CSRF(authURL)}, "callbackUrl": {callbackURL}})
}

// PostSignIn posts form to the sign-in URL u, which must answer 303, and
// follows the flow to its end, returning the final response and its
// body.
func (b *Browser) PostSignIn(u string, form url.Values) (*http.Response, string) {
	b.T.Helper()
	resp := b.Post(u, form)
	if resp.StatusCode != http.StatusSeeOther {
		b.T.Fatalf("sign-in POST answered %d, want 303", resp.StatusCode)
	}
	return b.FollowBody(resp)
}

// FollowBody follows redirects from resp (Follow) and returns the last
// response and its body, read and closed.
func (b *Browser) FollowBody(resp *http.Response) (*http.Response, string) {
	b.T.Helper()
	resp = b.Follow(resp)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// Defaults fills in what cfg leaves empty for a test site at base:
// Secret (secret), URL (base + "/auth") and an HTTPClient with a 5 s
// timeout.
func Defaults(cfg *gatehouse.Config, base, secret string) {
	if len(cfg.Secret) == 0 {
		cfg.Secret = []string{secret}
	}
	if cfg.URL == "" {
		cfg.URL = base + "/auth"
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 5 * time.Second}
	}
}

// RSAKey makes a private 2048-bit RSA JWK with kid.
func RSAKey(t testing.TB, kid string) jose.JSONWebKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return jose.JSONWebKey{Key: k, KeyID: kid}
}

// PublicSet is the set of the public halves of keys.
func PublicSet(keys ...jose.JSONWebKey) jose.JSONWebKeySet {
	var set jose.JSONWebKeySet
	for _, k := range keys {
		set.Keys = append(set.Keys, k.Public())
	}
	return set
}
