package gatehouse

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// csrf implements the signed double-submit cookie of Auth.js (security.md
// §4.4): the cookie holds "token|mac", the form field holds the token. A
// POST is accepted only when the MAC is one of ours and the field equals
// the cookie's token. The MAC is an HMAC (Auth.js uses sha256(token +
// secret)); the cookie is __Host- in secure mode, so a sibling subdomain
// cannot plant a pair of its own.
type csrf struct {
	keys [][]byte // newest first
}

func newCSRF(secrets []string) (*csrf, error) {
	c := &csrf{}
	for _, s := range secrets {
		k, err := hkdf.Key(sha256.New, []byte(s), []byte("gatehouse csrf"), "Gatehouse CSRF token MAC", 32)
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, k)
	}
	return c, nil
}

func (c *csrf) mac(key []byte, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// newPair returns a fresh token and its cookie value.
func (c *csrf) newPair() (token, cookie string) {
	token = randomHex(32)
	return token, token + "|" + c.mac(c.keys[0], token)
}

// token returns the token of a cookie value, or "" when the cookie is not
// one of ours.
func (c *csrf) token(cookie string) string {
	token, mac, ok := strings.Cut(cookie, "|")
	if !ok || len(token) != 64 || len(mac) != 64 {
		return ""
	}
	for _, k := range c.keys {
		if hmac.Equal([]byte(mac), []byte(c.mac(k, token))) {
			return token
		}
	}
	return ""
}

// verify reports whether the submitted token matches the cookie.
func (c *csrf) verify(cookie, submitted string) bool {
	t := c.token(cookie)
	return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(submitted)) == 1
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomToken() string { return randomHex(32) }
