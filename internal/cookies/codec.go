package cookies

import (
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
)

// Codec seals session tokens of type T as Auth.js does: JWE compact, alg
// "dir", enc A256CBC-HS512, the key derived from each secret with
// HKDF-SHA256 and the cookie name as salt, so a token made for one cookie
// name cannot be read under another (key separation).
// The kid header names the secret that sealed it (RFC 7638 thumbprint),
// as Auth.js writes it; the cookie cache's copies, which only Gatehouse
// reads, go without (NewCacheCodec).
// Keys are derived once, in NewCodec, never per request.
//
// Tokens already opened are cached, keyed by the exact sealed string: the
// same string always opens to the same claims, so a browser sending the
// same cookie on every request costs one decryption, not one per request.
// Only strings that opened are cached, until their expiry.
type Codec[T any] struct {
	sealer
	tolerance time.Duration
	cache     *bounded.Map[string, T]
	check     func(T) (expires time.Time, ok bool)
	clone     func(T) T
}

// sealer seals and opens a Codec's tokens, whatever their type: it is
// kept out of the generic Codec so that the program has one copy of it,
// not one per token type.
type sealer struct {
	keys []key // newest first
	enc  jose.Encrypter
}

type key struct {
	kid    string // thumbprint of key (SHA-512)
	key    []byte // 64 bytes: A256CBC-HS512
	gcmKid string // thumbprint of gcm (SHA-256), as Auth.js names it
	gcm    []byte // 32 bytes: A256GCM, accepted on decrypt
}

// ClockTolerance is Auth.js's tolerance on session token times.
const ClockTolerance = 15 * time.Second

// MaxTokenLen bounds what is parsed at all: 64 chunks of a cookie.
const MaxTokenLen = 64 * ChunkSize

// cacheSize bounds the tokens kept opened.
const cacheSize = 10000

// ErrInvalid is in the chain of every error Decode returns.
var ErrInvalid = errors.New("session token invalid")

// NewCodec returns the codec of the cookie named salt for secrets (newest
// first: the first seals, all open), accepting tokens up to tolerance
// past their expiry (ClockTolerance for Auth.js's session tokens, whose
// times another server may have written). check returns a token's expiry, and
// false for a value that is no session (no subject: how a check cookie
// pasted into the session slot would look, CVE-2023-48309); clone copies
// what a cached token shares with the ones handed out (its maps).
func NewCodec[T any](secrets []string, salt string, tolerance time.Duration, check func(T) (time.Time, bool), clone func(T) T) (*Codec[T], error) {
	return newCodec(secrets, salt, tolerance, check, clone, true)
}

// newCodec is NewCodec, its tokens sealed with a kid header when kid is
// set. Without one (a token only this server reads: the cookie cache's
// copies), the header is 127 characters shorter in the cookie, and
// opening a token tries each secret in turn, which only a token not yet
// in the cache of opened ones costs.
func newCodec[T any](secrets []string, salt string, tolerance time.Duration, check func(T) (time.Time, bool), clone func(T) T, kid bool) (*Codec[T], error) {
	sl, err := newSealer(secrets, salt, kid)
	if err != nil {
		return nil, err
	}
	return &Codec[T]{sealer: sl, tolerance: tolerance, cache: bounded.New[string, T](cacheSize), check: check, clone: clone}, nil
}

// newSealer derives the keys of the cookie named salt from secrets
// (newCodec).
func newSealer(secrets []string, salt string, kid bool) (sealer, error) {
	var sl sealer
	for _, s := range secrets {
		info := "Auth.js Generated Encryption Key (" + salt + ")"
		k64, err := hkdf.Key(sha256.New, []byte(s), []byte(salt), info, 64)
		if err != nil {
			return sl, err
		}
		k32, err := hkdf.Key(sha256.New, []byte(s), []byte(salt), info, 32)
		if err != nil {
			return sl, err
		}
		sl.keys = append(sl.keys, key{kid: octThumbprint(k64), key: k64, gcmKid: octThumbprint(k32), gcm: k32})
	}
	if len(sl.keys) == 0 {
		return sl, errors.New("no secret")
	}
	rcpt := jose.Recipient{Algorithm: jose.DIRECT, Key: sl.keys[0].key}
	if kid {
		rcpt.KeyID = sl.keys[0].kid
	}
	enc, err := jose.NewEncrypter(jose.A256CBC_HS512, rcpt, nil)
	if err != nil {
		return sl, err
	}
	sl.enc = enc
	return sl, nil
}

// octThumbprint is the RFC 7638 §3.2 thumbprint of a symmetric JWK: the
// hash of its required members in lexicographic order. Auth.js hashes with
// SHA-(8 × key length): SHA-512 for the 64-byte key, SHA-256 for the
// 32-byte one. go-jose does not compute it for "oct" keys.
func octThumbprint(key []byte) string {
	jwk := []byte(`{"k":"` + base64.RawURLEncoding.EncodeToString(key) + `","kty":"oct"}`)
	if len(key) == 32 {
		sum := sha256.Sum256(jwk)
		return base64.RawURLEncoding.EncodeToString(sum[:])
	}
	sum := sha512.Sum512(jwk)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Encode seals t with the newest secret.
func (c *Codec[T]) Encode(t T) (string, error) {
	payload, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	return c.seal(payload)
}

// seal encrypts payload with the newest secret.
func (sl *sealer) seal(payload []byte) (string, error) {
	obj, err := sl.enc.Encrypt(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}

// Decode opens s with any of the secrets and returns its token, unless it
// has expired at now (with the codec's tolerance). The token is the
// caller's own.
func (c *Codec[T]) Decode(s string, now time.Time) (T, error) {
	t, err := c.DecodeShared(s, now)
	if err != nil {
		return t, err
	}
	return c.clone(t), nil
}

// DecodeShared is Decode without the copy: what the token's pointers and
// maps point to is the cache's, shared with every request that sends s.
// The caller writes nothing through them and copies what it hands on
// (the cookie cache's read copies the one time it holds into storage of
// the request's).
func (c *Codec[T]) DecodeShared(s string, now time.Time) (T, error) {
	var zero T
	if len(s) == 0 || len(s) > MaxTokenLen {
		return zero, ErrInvalid
	}
	if t, ok := c.cache.Get(s, now); ok {
		return t, nil // the cache keeps it only until it expires
	}
	payload, err := c.open(s)
	if err != nil {
		return zero, err
	}
	var t T
	if err := json.Unmarshal(payload, &t); err != nil {
		return zero, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	expires, ok := c.check(t)
	if !ok {
		return zero, fmt.Errorf("%w: no subject or expiry", ErrInvalid)
	}
	until := expires.Add(c.tolerance)
	if now.After(until) {
		return zero, fmt.Errorf("%w: expired", ErrInvalid)
	}
	c.cache.Set(s, t, until.Add(time.Nanosecond), now) // live while now <= until
	return t, nil
}

// open decrypts s, a token no longer than MaxTokenLen, with the secret
// its kid names, or with each in turn when it names none. The error wraps
// ErrInvalid.
func (sl *sealer) open(s string) ([]byte, error) {
	obj, err := jose.ParseEncryptedCompact(s, []jose.KeyAlgorithm{jose.DIRECT}, []jose.ContentEncryption{jose.A256CBC_HS512, jose.A256GCM})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var payload []byte
	kid := obj.Header.KeyID
	for _, k := range sl.keys {
		// A kid names one secret (Auth.js: the thumbprint of the key for
		// the token's enc); without one, every secret is tried.
		// A256CBC-HS512 takes the 64-byte key, A256GCM the 32-byte one; the
		// wrong size fails at once, before any decryption.
		if kid == "" || kid == k.kid {
			if payload, err = obj.Decrypt(k.key); err == nil {
				break
			}
		}
		if kid == "" || kid == k.gcmKid {
			if payload, err = obj.Decrypt(k.gcm); err == nil {
				break
			}
		}
	}
	if payload == nil {
		return nil, fmt.Errorf("%w: no secret opens it", ErrInvalid)
	}
	return payload, nil
}
