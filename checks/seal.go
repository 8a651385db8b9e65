package checks

import (
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
)

// MaxAge is how long a sealed check value lives: 15 minutes, as in Auth.js.
const MaxAge = 15 * time.Minute

// Sealer seals check values into cookie values and opens them again.
// Sealing uses the newest secret; opening tries every secret, so secrets
// can be rotated without breaking sign-ins in flight.
type Sealer struct {
	codecs []securecookie.Codec
}

// NewSealer derives sealing keys from the secrets, newest first. Each
// secret should carry at least 32 bytes of entropy.
func NewSealer(secrets []string) (*Sealer, error) {
	if len(secrets) == 0 {
		return nil, errors.New("checks: no secret")
	}
	s := &Sealer{}
	for _, secret := range secrets {
		// Keys of their own for the check cookies: a session key can never
		// open a check cookie or the other way round (CVE-2023-48309).
		keys, err := hkdf.Key(sha256.New, []byte(secret), []byte("gatehouse checks"), "Gatehouse check cookie keys", 64)
		if err != nil {
			return nil, err
		}
		c := securecookie.New(keys[:32], keys[32:])
		c.MaxAge(int(MaxAge / time.Second))
		c.SetSerializer(securecookie.NopEncoder{})
		s.codecs = append(s.codecs, c)
	}
	return s, nil
}

// Seal returns the cookie value for value, bound to the cookie's name and
// to the provider. The name is covered by the MAC, so a value sealed for
// one cookie is refused in another.
func (s *Sealer) Seal(name, provider, value string) (string, error) {
	return s.codecs[0].Encode(name, []byte(provider+"\x00"+value))
}

// Open returns the value sealed in cookie, which the browser sent under
// name, after checking it was sealed for name and for provider and is no
// older than MaxAge. An empty cookie is ErrCookieMissing.
func (s *Sealer) Open(k Kind, name, provider, cookie string) (string, error) {
	if cookie == "" {
		return "", fail(k, ErrCookieMissing)
	}
	var raw []byte
	if err := securecookie.DecodeMulti(name, cookie, &raw, s.codecs...); err != nil {
		return "", fail(k, fmt.Errorf("%w: %v", ErrCookieInvalid, err))
	}
	p, value, ok := strings.Cut(string(raw), "\x00")
	switch {
	case !ok || value == "":
		return "", fail(k, ErrCookieInvalid)
	case p != provider:
		return "", fail(k, ErrWrongProvider)
	}
	return value, nil
}
