// Package site is the site as every route sees it. Resolver finds where
// the routes are reached from, for one request: the public origin
// (Config.URL, or the request's Host and scheme, X-Forwarded-* believed
// only with TrustHost), the base path, and the cookie names that go with
// the scheme. Site adds the checks every state-changing request passes
// (same origin, CSRF token, rate limit) and the answers that tell a
// browser what happened: failures, redirects and the built-in pages.
package site

import (
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/gatehouse-auth/gatehouse/internal/cookies"
)

// Base is where the routes are reached from, for one request.
type Base struct {
	Origin       string // scheme://host[:port]
	Scheme, Host string
	Path         string // e.g. /auth
	Cookies      cookies.Names
	// Providers is the {base}/providers answer, encoded on first use: it
	// changes with nothing but the origin.
	Providers atomic.Pointer[[]byte]
}

// URL returns the absolute URL of the route parts under the base path.
func (b *Base) URL(parts ...string) string { return b.Origin + b.Path + "/" + strings.Join(parts, "/") }

// Same reports whether a and b are the same base: one origin, base path
// and cookie names. A nil base is the same as none.
func (a *Base) Same(b *Base) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.Origin == b.Origin && a.Path == b.Path && a.Cookies == b.Cookies
}

// Resolver finds each request's Base. Set its fields, then call Fix
// when the site has one fixed URL; it is safe for concurrent use after.
type Resolver struct {
	// Path is the base path, e.g. /auth.
	Path string
	// Secure, when set, overrides the scheme's choice of secure cookies
	// (Config.UseSecureCookies); AuthJSNames keeps Auth.js's cookie names.
	Secure      *bool
	AuthJSNames bool
	// TrustHost believes X-Forwarded-Proto and X-Forwarded-Host.
	TrustHost bool

	fixed *Base
	last  atomic.Pointer[Base] // the last request's, reused by the next of that origin
}

// New returns the base of scheme://host.
func (s *Resolver) New(scheme, host string) *Base {
	secure := scheme == "https"
	if s.Secure != nil {
		secure = *s.Secure
	}
	return &Base{Origin: scheme + "://" + host, Scheme: scheme, Host: host, Path: s.Path, Cookies: cookies.NewNames(secure, s.AuthJSNames)}
}

// Fix makes every request's base that of scheme://host (Config.URL) and
// returns it.
func (s *Resolver) Fix(scheme, host string) *Base {
	s.fixed = s.New(scheme, host)
	return s.fixed
}

// For returns the base of a request: the fixed one when set; otherwise
// the request's own Host and scheme, believing X-Forwarded-* only with
// TrustHost.
func (s *Resolver) For(r *http.Request) *Base {
	if s.fixed != nil {
		return s.fixed
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if s.TrustHost {
		if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
			scheme = p
		}
		if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && ValidHost(fh) {
			host = fh
		}
	}
	if !ValidHost(host) {
		host = "localhost"
	}
	// Most sites are reached from one origin: its base is built once, not
	// on every request. A request from another origin replaces it.
	if b := s.last.Load(); b != nil && b.Scheme == scheme && b.Host == host {
		return b
	}
	b := s.New(scheme, host)
	s.last.Store(b)
	return b
}

// ValidHost accepts host[:port] made of the characters a host may have.
func ValidHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}
