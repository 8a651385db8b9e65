package checks

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// MaxAge is how long a sealed check value lives: 15 minutes, as in Auth.js.
const MaxAge = 15 * time.Minute

// Sealer seals check values into cookie values and opens them again.
// Sealing uses the newest secret; opening tries every secret, so secrets
// can be rotated without breaking sign-ins in flight.
//
// A sealed value is AES-256-GCM over the time it was sealed, the provider
// and the values, with the cookie's name as additional data: encrypted,
// authenticated, and bound to its cookie (NIST SP 800-38D). It is built
// in one buffer, so a sign-in pays one seal, not the chain of encodings
// of a general cookie codec.
//
// The 96-bit nonce is random. NIST SP 800-38D §8.3 allows 2^32 seals per
// key with random nonces, counted over the key's whole life, not a
// cookie's: a key is one secret of the list, and a seal is one sign-in
// start (or sign-out with a provider). Two seals under one nonce would
// give whoever holds both cookies the means to forge others, and only
// the browser that started a sign-in holds its cookie: an attacker would
// have to start on the order of 2^48 sign-ins (each counted by the rate
// limit) for two of theirs to collide. Still, put a new secret in front
// (Config.Secret) before a secret has sealed 2^32 values: at 100
// sign-in starts a second, after about a year.
type Sealer struct {
	aeads []cipher.AEAD // newest first
	now   func() time.Time
}

// Sizes of the sealed layout: nonce | AES-GCM(time | provider 0 value) | tag.
const (
	nonceSize = 12
	timeSize  = 8
	tagSize   = 16
	// maxSealed bounds what Open decodes: a cookie is at most 4 KB.
	maxSealed = 4096
)

// NewSealer derives sealing keys from the secrets, newest first. Each
// secret should carry at least 32 bytes of entropy.
func NewSealer(secrets []string) (*Sealer, error) {
	if len(secrets) == 0 {
		return nil, errors.New("checks: no secret")
	}
	s := &Sealer{now: time.Now}
	for _, secret := range secrets {
		// Keys of their own for the check cookies: a session key can never
		// open a check cookie or the other way round (CVE-2023-48309).
		key, err := hkdf.Key(sha256.New, []byte(secret), []byte("gatehouse checks"), "Gatehouse check cookie AES-256-GCM key", 32)
		if err != nil {
			return nil, err
		}
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		s.aeads = append(s.aeads, aead)
	}
	return s, nil
}

// Seal returns the cookie value for value, bound to the cookie's name and
// to the provider. The name is the AEAD's additional data, so a value
// sealed for one cookie is refused in another.
func (s *Sealer) Seal(name, provider, value string) (string, error) {
	return s.seal(name, provider, value), nil
}

// seal seals provider 0 values[0] sep values[1] sep … under name.
func (s *Sealer) seal(name, provider string, values ...string) string {
	n := timeSize + len(provider) + 1 + max(len(values)-1, 0)*len(sep)
	for _, v := range values {
		n += len(v)
	}
	// One buffer for the sealed bytes, the additional data (handed to the
	// AEAD through an interface, a []byte(name) of its own would escape)
	// and their base64url text.
	size := nonceSize + n + tagSize
	buf := make([]byte, size+len(name), size+len(name)+base64.RawURLEncoding.EncodedLen(size))
	raw, ad := buf[:size], buf[size:]
	copy(ad, name)
	// crypto/rand.Read never fails on supported platforms (Go 1.24+).
	_, _ = rand.Read(raw[:nonceSize])
	pt := raw[nonceSize:nonceSize]
	pt = binary.BigEndian.AppendUint64(pt, uint64(s.now().Unix()))
	pt = append(pt, provider...)
	pt = append(pt, 0)
	for i, v := range values {
		if i > 0 {
			pt = append(pt, sep...)
		}
		pt = append(pt, v...)
	}
	// In place: the ciphertext overwrites the plaintext, the tag follows.
	s.aeads[0].Seal(pt[:0], raw[:nonceSize], pt, ad)
	return string(base64.RawURLEncoding.AppendEncode(buf[len(buf):], raw))
}

// Open returns the value sealed in cookie, which the browser sent under
// name, after checking it was sealed for name and for provider and is no
// older than MaxAge. An empty cookie is ErrCookieMissing.
func (s *Sealer) Open(k Kind, name, provider, cookie string) (string, error) {
	if cookie == "" {
		return "", fail(k, ErrCookieMissing)
	}
	if len(cookie) > maxSealed {
		return "", fail(k, ErrCookieInvalid)
	}
	// Strict: one sealed value has one text, its unused bits zero.
	raw, err := base64.RawURLEncoding.Strict().DecodeString(cookie)
	if err != nil || len(raw) < nonceSize+timeSize+1+tagSize {
		return "", fail(k, ErrCookieInvalid)
	}
	nonce, box := raw[:nonceSize], raw[nonceSize:]
	var pt []byte
	for _, aead := range s.aeads {
		if pt, err = aead.Open(box[:0:0], nonce, box, []byte(name)); err == nil {
			break
		}
	}
	if err != nil {
		return "", fail(k, ErrCookieInvalid)
	}
	// Sealed no more than MaxAge ago, and not in the future (a minute of
	// clock skew between servers allowed).
	now := s.now()
	sealed := time.Unix(int64(binary.BigEndian.Uint64(pt)), 0)
	if now.Sub(sealed) > MaxAge || sealed.Sub(now) > time.Minute {
		return "", fail(k, ErrCookieInvalid)
	}
	p, value, ok := strings.Cut(string(pt[timeSize:]), "\x00")
	switch {
	case !ok || value == "":
		return "", fail(k, ErrCookieInvalid)
	case p != provider:
		return "", fail(k, ErrWrongProvider)
	}
	return value, nil
}
