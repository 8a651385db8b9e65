package checks

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"hash"
	"net/http"
	"sync"
)

// CSRF implements the signed double-submit cookie of Auth.js (OWASP's
// "signed double-submit cookie" pattern): the cookie holds "token|mac", the form field holds the token. A
// POST is accepted only when the MAC is one of ours and the field equals
// the cookie's token. The MAC is an HMAC (Auth.js uses sha256(token +
// secret)); the cookie is __Host- in secure mode, so a sibling subdomain
// cannot plant a pair of its own.
//
// Both halves are base64url, not hex as Auth.js writes them, and the MAC
// is HMAC-SHA256 truncated to 128 bits (NIST SP 800-107r1 §5.3.3; RFC
// 4868 §2.3 uses the same length): the cookie is 66 characters instead
// of 129, and a browser sends it with every request to the site.
// Guessing a MAC for a token of one's choice is a 2^-128 chance.
type CSRF struct {
	keys [][]byte    // newest first
	macs []sync.Pool // per key: *macState, reused (Reset) rather than made per request
}

// macState is an HMAC-SHA256 state with its input and output buffers, so
// that computing a MAC allocates nothing (a buffer handed to the hash
// through its interface would escape to the heap on every call).
type macState struct {
	h   hash.Hash
	in  [csrfTokenLen]byte
	sum [sha256.Size]byte
}

// A token is 32 random bytes, base64url (csrfTokenLen characters); its
// MAC the first csrfMACBytes of the HMAC, base64url (csrfMACLen).
const (
	csrfTokenLen = 43
	csrfMACLen   = 22
	csrfMACBytes = 16
)

// NewCSRF returns the CSRF tokens of secrets (newest first: the first
// signs new pairs, all verify).
func NewCSRF(secrets []string) (*CSRF, error) {
	c := &CSRF{macs: make([]sync.Pool, len(secrets))}
	for i, s := range secrets {
		k, err := hkdf.Key(sha256.New, []byte(s), []byte("gatehouse csrf"), "Gatehouse CSRF token MAC", 32)
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, k)
		c.macs[i].New = func() any { return &macState{h: hmac.New(sha256.New, k)} }
	}
	return c, nil
}

// mac writes the MAC of token (csrfTokenLen bytes) under key i: its
// HMAC-SHA256, the first csrfMACBytes of it, base64url.
func (c *CSRF) mac(i int, token []byte, out *[csrfMACLen]byte) {
	m := c.macs[i].Get().(*macState)
	n := copy(m.in[:], token)
	m.h.Reset()
	m.h.Write(m.in[:n])
	base64.RawURLEncoding.Encode(out[:], m.h.Sum(m.sum[:0])[:csrfMACBytes])
	c.macs[i].Put(m)
}

// NewPair returns a fresh token and its cookie value.
func (c *CSRF) NewPair() (token, cookie string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	// "token|mac" built in one buffer; the token is its first part.
	var text [csrfTokenLen + 1 + csrfMACLen]byte
	base64.RawURLEncoding.Encode(text[:csrfTokenLen], b[:])
	text[csrfTokenLen] = '|'
	c.mac(0, text[:csrfTokenLen], (*[csrfMACLen]byte)(text[csrfTokenLen+1:]))
	cookie = string(text[:])
	return cookie[:csrfTokenLen], cookie
}

// CSRFShaped reports whether cookie has the shape of a CSRF cookie value,
// "token|mac" of the right lengths, without checking its MAC: a cheap
// test for a cookie that cannot be one (missing, or of an earlier
// format), which Token would refuse.
func CSRFShaped(cookie string) bool {
	return len(cookie) == csrfTokenLen+1+csrfMACLen && cookie[csrfTokenLen] == '|'
}

// Token returns the token of a cookie value, or "" when the cookie is not
// one of ours.
func (c *CSRF) Token(cookie string) string {
	if !CSRFShaped(cookie) {
		return ""
	}
	token, mac := cookie[:csrfTokenLen], cookie[csrfTokenLen+1:]
	var in [csrfTokenLen]byte
	copy(in[:], token)
	var got, want [csrfMACLen]byte
	copy(got[:], mac)
	for i := range c.keys {
		c.mac(i, in[:], &want)
		if hmac.Equal(got[:], want[:]) {
			return token
		}
	}
	return ""
}

// Verify reports whether the submitted token matches the cookie.
func (c *CSRF) Verify(cookie, submitted string) bool {
	t := c.Token(cookie)
	if t == "" || len(submitted) != len(t) {
		return false
	}
	var a, b [csrfTokenLen]byte
	copy(a[:], t)
	copy(b[:], submitted)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// SameOrigin refuses a state-changing request a browser sent from another
// origin, in addition to the CSRF token (which a cookie-tossing attacker
// can plant as a matching pair on plain http): Go's
// http.CrossOriginProtection reads Sec-Fetch-Site, then compares Origin
// with the Host. Requests without either header are not from a browser
// and pass (the CSRF token still applies). Behind a proxy that rewrites
// Host, an Origin equal to the site's public origin is accepted too.
func SameOrigin(cop *http.CrossOriginProtection, r *http.Request, origin string) error {
	err := cop.Check(r)
	if err != nil && r.Header.Get("Sec-Fetch-Site") == "" && r.Header.Get("Origin") == origin {
		return nil
	}
	return err
}
