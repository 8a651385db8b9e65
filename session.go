package gatehouse

import (
	"context"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/go-jose/go-jose/v4"
)

// Token is the content of a JWT-strategy session cookie: the claims
// Auth.js writes (sub, name, email, picture, iat, exp, jti) plus whatever
// the JWT callback adds in Extra.
type Token struct {
	Subject  string `json:"sub"`
	Name     string `json:"name,omitempty"`
	Email    string `json:"email,omitempty"`
	Picture  string `json:"picture,omitempty"`
	IssuedAt int64  `json:"iat"`
	Expires  int64  `json:"exp"`
	ID       string `json:"jti"`
	// Provider is the id of the provider the user signed in with.
	Provider string `json:"provider,omitempty"`
	// Extra holds other claims, written at the top level of the token.
	Extra map[string]any `json:"-"`
}

// user is the signed-in user a token describes.
func (t Token) user() profile.User {
	return profile.User{ID: t.Subject, Name: t.Name, Email: t.Email, Image: t.Picture}
}

var tokenClaims = map[string]bool{"sub": true, "name": true, "email": true, "picture": true, "iat": true, "exp": true, "jti": true, "provider": true}

// MarshalJSON writes the claims and Extra as one flat object.
func (t Token) MarshalJSON() ([]byte, error) {
	type plain Token
	std, err := json.Marshal(plain(t))
	if err != nil || len(t.Extra) == 0 {
		return std, err
	}
	all := make(map[string]any, len(t.Extra)+8)
	for k, v := range t.Extra {
		if !tokenClaims[k] {
			all[k] = v
		}
	}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	return json.Marshal(all)
}

// UnmarshalJSON reads the claims, keeping unknown ones in Extra.
func (t *Token) UnmarshalJSON(b []byte) error {
	type plain Token
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = Token(p)
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if tokenClaims[k] {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		t.Extra[k] = x
	}
	return nil
}

// Session is what the application sees of a signed-in user: GET
// {base}/session answers it as JSON, SessionFrom returns it.
type Session struct {
	User    profile.User `json:"user"`
	Expires time.Time    `json:"expires"`
	// Extra holds what the Session callback adds, written at the top
	// level of the JSON.
	Extra map[string]any `json:"-"`
}

// MarshalJSON writes user, expires (ISO 8601) and Extra as one object.
func (s Session) MarshalJSON() ([]byte, error) {
	all := make(map[string]any, len(s.Extra)+2)
	maps.Copy(all, s.Extra)
	all["user"] = s.User
	all["expires"] = s.Expires.UTC().Format(time.RFC3339Nano)
	return json.Marshal(all)
}

// jweCodec seals session tokens as Auth.js does: JWE compact, alg "dir",
// enc A256CBC-HS512, the key derived from each secret with HKDF-SHA256 and
// the cookie name as salt, so a token made for one cookie name cannot be
// read under another (key separation, security.md §4.3). The kid header
// names the secret that sealed it (RFC 7638 thumbprint). Keys are derived
// once, when the handler is built, never per request.
type jweCodec struct {
	salt  string
	keys  []jweKey // newest first
	enc   jose.Encrypter
	cache tokenCache
}

// tokenCache remembers tokens already decrypted, keyed by the exact sealed
// string: the same string always opens to the same claims, so a browser
// sending the same cookie on every request costs one decryption, not one
// per request. Only strings that opened are stored; expiry is still
// checked on every use. It is bounded and simply emptied when full.
type tokenCache struct {
	mu sync.RWMutex
	m  map[string]Token
}

const tokenCacheMax = 10000

func (c *tokenCache) get(s string) (Token, bool) {
	c.mu.RLock()
	t, ok := c.m[s]
	c.mu.RUnlock()
	return t, ok
}

func (c *tokenCache) put(s string, t Token) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= tokenCacheMax {
		c.m = make(map[string]Token, 64)
	}
	c.m[s] = t
	c.mu.Unlock()
}

type jweKey struct {
	kid    string // thumbprint of key (SHA-512)
	key    []byte // 64 bytes: A256CBC-HS512
	gcmKid string // thumbprint of gcm (SHA-256), as Auth.js names it
	gcm    []byte // 32 bytes: A256GCM, accepted on decrypt
}

// sessionClockTolerance is Auth.js's tolerance on session token times.
const sessionClockTolerance = 15 * time.Second

func newJWECodec(secrets []string, salt string) (*jweCodec, error) {
	c := &jweCodec{salt: salt}
	for _, s := range secrets {
		info := "Auth.js Generated Encryption Key (" + salt + ")"
		k64, err := hkdf.Key(sha256.New, []byte(s), []byte(salt), info, 64)
		if err != nil {
			return nil, err
		}
		k32, err := hkdf.Key(sha256.New, []byte(s), []byte(salt), info, 32)
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, jweKey{kid: octThumbprint(k64), key: k64, gcmKid: octThumbprint(k32), gcm: k32})
	}
	enc, err := jose.NewEncrypter(jose.A256CBC_HS512,
		jose.Recipient{Algorithm: jose.DIRECT, Key: c.keys[0].key, KeyID: c.keys[0].kid}, nil)
	if err != nil {
		return nil, err
	}
	c.enc = enc
	return c, nil
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

func (c *jweCodec) encode(t Token) (string, error) {
	payload, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	obj, err := c.enc.Encrypt(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}

var errSessionInvalid = errors.New("session token invalid")

// maxTokenLen bounds what is parsed at all: 64 chunks of a cookie.
const maxTokenLen = 64 * chunkSize

func (c *jweCodec) decode(s string, now time.Time) (Token, error) {
	if len(s) == 0 || len(s) > maxTokenLen {
		return Token{}, errSessionInvalid
	}
	if t, ok := c.cache.get(s); ok {
		if now.After(time.Unix(t.Expires, 0).Add(sessionClockTolerance)) {
			return Token{}, fmt.Errorf("%w: expired", errSessionInvalid)
		}
		// Extra is shared with the cache: hand out a copy.
		t.Extra = maps.Clone(t.Extra)
		return t, nil
	}
	obj, err := jose.ParseEncryptedCompact(s, []jose.KeyAlgorithm{jose.DIRECT}, []jose.ContentEncryption{jose.A256CBC_HS512, jose.A256GCM})
	if err != nil {
		return Token{}, fmt.Errorf("%w: %v", errSessionInvalid, err)
	}
	var payload []byte
	kid := obj.Header.KeyID
	for _, k := range c.keys {
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
		return Token{}, fmt.Errorf("%w: no secret opens it", errSessionInvalid)
	}
	var t Token
	if err := json.Unmarshal(payload, &t); err != nil {
		return Token{}, fmt.Errorf("%w: %v", errSessionInvalid, err)
	}
	// A token with no subject is not a session: this is how a check
	// cookie pasted into the session slot would look (CVE-2023-48309),
	// though key separation already stops that.
	if t.Subject == "" || t.Expires == 0 {
		return Token{}, fmt.Errorf("%w: no subject or expiry", errSessionInvalid)
	}
	if now.After(time.Unix(t.Expires, 0).Add(sessionClockTolerance)) {
		return Token{}, fmt.Errorf("%w: expired", errSessionInvalid)
	}
	c.cache.put(s, t)
	t.Extra = maps.Clone(t.Extra)
	return t, nil
}

// withTimeout is a small helper for adapter calls made on the hot path.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 5*time.Second)
}
