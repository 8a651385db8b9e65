package servicetoken

import (
	"context"
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Claims are what a token says beyond what the Signer sets (iss, exp,
// iat, jti).
type Claims struct {
	Subject  string // the user's id
	Audience string // one of Config.Audiences
	ClientID string // the API key's id, or Config.ClientID
	// Scope is the permissions, space-separated (RFC 9068 §2.2.3).
	Scope string
	// OrganizationID is written as org_id when not empty.
	OrganizationID string
}

// Signer issues tokens and serves the key set. It is safe for concurrent
// use; every instance of the application has one over the same KeyStore.
type Signer struct {
	cfg   Config
	store KeyStore
	seals []cipher.AEAD // one per app secret, newest first
	now   func() time.Time

	mu       sync.Mutex
	keys     []SigningKey // as last read, by generation
	loadedAt time.Time
	signers  map[string]jose.Signer // by kid
}

// NewSigner returns a Signer of cfg (normalized) over store, sealing the
// private keys with keys derived from secrets (the app's secrets, newest
// first; each is tried to open a key).
func NewSigner(cfg Config, store KeyStore, secrets []string) (*Signer, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	if store == nil {
		return nil, errors.New("servicetoken: no KeyStore")
	}
	s := &Signer{cfg: cfg, store: store, now: time.Now, signers: map[string]jose.Signer{}}
	for _, secret := range secrets {
		// A key of its own for this purpose (HKDF, RFC 5869), so the
		// sealed signing keys share nothing with cookies.
		k, err := hkdf.Key(sha256.New, []byte(secret), nil, "gatehouse service token signing keys", 32)
		if err != nil {
			return nil, err
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		gcm, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		s.seals = append(s.seals, gcm)
	}
	if len(s.seals) == 0 {
		return nil, errors.New("servicetoken: no secret")
	}
	return s, nil
}

// Config returns the Signer's configuration, defaults filled in.
func (s *Signer) Config() Config { return s.cfg }

// reloadEvery is how often the keys are read again from the store, to see
// the keys other instances made: well within Overlap, so a key another
// instance made is published here long before it signs.
func (s *Signer) reloadEvery() time.Duration { return min(s.cfg.Overlap/4, time.Minute) }

// state returns the keys, read again when stale, after making the next
// key when it is due (see the package doc).
func (s *Signer) state(ctx context.Context) ([]SigningKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.keys != nil && now.Sub(s.loadedAt) < s.reloadEvery() && !s.due(now) {
		return s.keys, nil
	}
	keys, err := s.store.SigningKeys(ctx)
	if err != nil {
		if s.keys != nil && !s.due(now) && now.Sub(s.loadedAt) < s.cfg.Overlap/2 {
			// The store is down for a moment: the keys read last still
			// hold (no new key is due, and none another instance made
			// can sign before Overlap from its making).
			return s.keys, nil
		}
		return nil, err
	}
	s.keys, s.loadedAt = keys, now
	if s.due(now) {
		if err := s.addNext(ctx, now); err != nil {
			return nil, err
		}
		if s.keys, err = s.store.SigningKeys(ctx); err != nil {
			return nil, err
		}
	}
	s.prune(ctx, now)
	return s.keys, nil
}

// due reports whether the next key must be made: there is none yet, or
// the newest one starts signing within Overlap of its Rotation's end.
func (s *Signer) due(now time.Time) bool {
	if len(s.keys) == 0 {
		return true
	}
	last := s.keys[len(s.keys)-1]
	return !now.Before(last.NotBefore.Add(s.cfg.Rotation - s.cfg.Overlap))
}

// addNext makes and stores the key of the next generation. The first key
// signs at once (no token exists for a cached key set to miss); the
// others start at the end of the newest key's Rotation, and never sooner
// than Overlap from now. Another instance may store that generation
// first: then its key is the one, and this one is dropped.
func (s *Signer) addNext(ctx context.Context, now time.Time) error {
	k := SigningKey{Generation: 1, NotBefore: now, CreatedAt: now, Algorithm: s.cfg.Algorithm}
	if n := len(s.keys); n > 0 {
		last := s.keys[n-1]
		k.Generation = last.Generation + 1
		k.NotBefore = last.NotBefore.Add(s.cfg.Rotation)
		if earliest := now.Add(s.cfg.Overlap); k.NotBefore.Before(earliest) {
			k.NotBefore = earliest
		}
	}
	priv, err := newPrivateKey(s.cfg.Algorithm)
	if err != nil {
		return err
	}
	jwk := jose.JSONWebKey{Key: priv, Algorithm: s.cfg.Algorithm, Use: "sig"}
	pub := jwk.Public()
	thumb, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return err
	}
	jwk.KeyID = base64.RawURLEncoding.EncodeToString(thumb)
	k.ID = jwk.KeyID
	private, err := jwk.MarshalJSON()
	if err != nil {
		return err
	}
	pub.KeyID = k.ID
	public, err := pub.MarshalJSON()
	if err != nil {
		return err
	}
	k.Public = string(public)
	k.Sealed = s.seal(private, k.ID)
	_, err = s.store.AddSigningKey(ctx, k)
	return err
}

func newPrivateKey(alg string) (crypto.Signer, error) {
	if alg == ES256 {
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	return priv, err
}

// seal encrypts a private JWK with the newest secret's key, bound to the
// key's id (the AEAD's additional data), so that a sealed key moved to
// another row does not open.
func (s *Signer) seal(private []byte, kid string) string {
	gcm := s.seals[0]
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(gcm.Seal(nonce, nonce, private, []byte(kid)))
}

// open decrypts a sealed private JWK, trying every secret.
func (s *Signer) open(k SigningKey) (*jose.JSONWebKey, error) {
	raw, err := base64.RawURLEncoding.DecodeString(k.Sealed)
	if err != nil {
		return nil, err
	}
	for _, gcm := range s.seals {
		if len(raw) < gcm.NonceSize() {
			break
		}
		plain, err := gcm.Open(nil, raw[:gcm.NonceSize()], raw[gcm.NonceSize():], []byte(k.ID))
		if err != nil {
			continue
		}
		var jwk jose.JSONWebKey
		if err := jwk.UnmarshalJSON(plain); err != nil {
			return nil, err
		}
		return &jwk, nil
	}
	return nil, fmt.Errorf("servicetoken: signing key %s does not open with any secret", k.ID)
}

// current returns the key that signs at now: the newest whose NotBefore
// has come.
func current(keys []SigningKey, now time.Time) (SigningKey, bool) {
	for i := len(keys) - 1; i >= 0; i-- {
		if !now.Before(keys[i].NotBefore) {
			return keys[i], true
		}
	}
	return SigningKey{}, false
}

// published returns the keys of the key set at now: the ones that sign
// later (published ahead), the current one, and the older ones that
// stopped signing less than a token's Lifetime (and a minute of clock
// skew) ago.
func (s *Signer) published(keys []SigningKey, now time.Time) []SigningKey {
	var out []SigningKey
	for i, k := range keys {
		if i+1 < len(keys) && !now.Before(keys[i+1].NotBefore.Add(s.cfg.Lifetime+time.Minute)) {
			continue // retired, and its last token expired
		}
		out = append(out, k)
	}
	return out
}

// prune deletes the keys that are no longer published, an hour after
// their last token expired; a failure is left for the next time.
func (s *Signer) prune(ctx context.Context, now time.Time) {
	i := 0
	for i+1 < len(s.keys) && !now.Before(s.keys[i+1].NotBefore.Add(s.cfg.Lifetime+time.Hour)) {
		i++
	}
	if i > 0 && s.store.DeleteSigningKeys(ctx, s.keys[i].Generation) == nil {
		s.keys = s.keys[i:]
	}
}

// Issue signs a token of c for issuer, valid for Config.Lifetime from
// now, and returns it with its expiry.
func (s *Signer) Issue(ctx context.Context, issuer string, c Claims) (string, time.Time, error) {
	keys, err := s.state(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	now := s.now()
	k, ok := current(keys, now)
	if !ok {
		return "", time.Time{}, errors.New("servicetoken: no key signs yet")
	}
	signer, err := s.signer(k)
	if err != nil {
		return "", time.Time{}, err
	}
	exp := now.Add(s.cfg.Lifetime)
	claims := struct {
		jwt.Claims
		ClientID string `json:"client_id"`
		Scope    string `json:"scope,omitempty"`
		OrgID    string `json:"org_id,omitempty"`
	}{
		Claims: jwt.Claims{Issuer: issuer, Subject: c.Subject, Audience: jwt.Audience{c.Audience},
			Expiry: jwt.NewNumericDate(exp), IssuedAt: jwt.NewNumericDate(now), ID: randomID()},
		ClientID: c.ClientID, Scope: c.Scope, OrgID: c.OrganizationID,
	}
	token, err := jwt.Signed(signer).Claims(claims).Serialize()
	return token, exp, err
}

// signer returns the jose.Signer of k, made once.
func (s *Signer) signer(k SigningKey) (jose.Signer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sg, ok := s.signers[k.ID]; ok {
		return sg, nil
	}
	jwk, err := s.open(k)
	if err != nil {
		return nil, err
	}
	// typ "at+jwt": RFC 9068 §2.1, so that an access token is never taken
	// for an ID token or another JWT.
	sg, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(k.Algorithm), Key: *jwk},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		return nil, err
	}
	s.signers[k.ID] = sg
	return sg, nil
}

// JWKS returns the key set to publish, as JSON ({"keys": [...]}).
func (s *Signer) JWKS(ctx context.Context) ([]byte, error) {
	keys, err := s.state(ctx)
	if err != nil {
		return nil, err
	}
	var list []string
	for _, k := range s.published(keys, s.now()) {
		list = append(list, k.Public)
	}
	return []byte(`{"keys":[` + strings.Join(list, ",") + "]}\n"), nil
}

// randomID returns a jti: 128 random bits.
func randomID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
