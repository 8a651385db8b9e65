package site

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
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
