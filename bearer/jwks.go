package bearer

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Bounds on how long a fetched key set is used before it is fetched again:
// the issuer's Cache-Control max-age, clamped, or defaultKeyAge without one.
const (
	minKeyAge     = time.Minute
	maxKeyAge     = 24 * time.Hour
	defaultKeyAge = 10 * time.Minute
)

// key is one verification key of the issuer's key set. Its pointer is its
// identity: a refetched set keeps the pointers of unchanged keys, so that
// a cached token is served only while the current set holds its key.
type key struct {
	jwk   jose.JSONWebKey
	thumb string // RFC 7638 thumbprint, to recognise the key in a refetched set
}

// keySnapshot is one fetched key set, never modified once published.
type keySnapshot struct {
	byID    map[string][]*key
	all     []*key
	fetched time.Time
	expires time.Time
}

// keySet is the issuer's JWKS, cached. Readers load the current snapshot
// without locking; fetches are serialised, so that concurrent requests
// wait for one fetch instead of each making their own.
type keySet struct {
	v       *Verifier
	current atomic.Pointer[keySnapshot]

	mu      sync.Mutex // held while fetching
	lastTry time.Time
	lastErr error
}

// holds reports whether the current, unexpired key set still holds k.
func (s *keySet) holds(k *key, now time.Time) bool {
	snap := s.current.Load()
	if snap == nil || !now.Before(snap.expires) {
		return false
	}
	for _, c := range snap.byID[k.jwk.KeyID] {
		if c == k {
			return true
		}
	}
	return false
}

// find returns the keys that may have signed a token with kid and alg,
// fetching the set when it is missing or expired, or when no key matches
// and the last fetch is older than RefetchInterval.
func (s *keySet) find(ctx context.Context, kid, alg string, now time.Time) ([]*key, error) {
	snap := s.current.Load()
	if snap != nil && now.Before(snap.expires) {
		if keys := snap.match(kid, alg); len(keys) > 0 {
			return keys, nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	snap = s.current.Load() // another request may have fetched meanwhile
	fresh := snap != nil && now.Before(snap.expires)
	if fresh {
		if keys := snap.match(kid, alg); len(keys) > 0 {
			return keys, nil
		}
	}
	// The refetch budget: one fetch per RefetchInterval, counting failed
	// ones, however many tokens name unknown keys.
	if !s.lastTry.IsZero() && now.Sub(s.lastTry) < s.v.cfg.RefetchInterval {
		if snap == nil {
			return nil, s.lastErr
		}
		if keys := snap.match(kid, alg); len(keys) > 0 {
			return keys, nil // expired, and the refetch failed: keep it
		}
		return nil, fmt.Errorf("bearer: %w: kid %q, alg %s", ErrUnknownKey, kid, alg)
	}
	s.lastTry = now
	next, err := s.fetch(ctx, snap, now)
	s.lastErr = err
	if err != nil {
		if snap != nil {
			if keys := snap.match(kid, alg); len(keys) > 0 {
				return keys, nil
			}
		}
		return nil, err
	}
	s.current.Store(next)
	if keys := next.match(kid, alg); len(keys) > 0 {
		return keys, nil
	}
	return nil, fmt.Errorf("bearer: %w: kid %q, alg %s", ErrUnknownKey, kid, alg)
}

// fetch downloads and parses the key set. Keys it cannot use
// (unparseable, for encryption) are skipped, not fatal: one odd key must
// not take the issuer's other keys down.
func (s *keySet) fetch(ctx context.Context, old *keySnapshot, now time.Time) (*keySnapshot, error) {
	url, _, err := s.v.endpoints(ctx, now)
	if err != nil {
		return nil, err
	}
	if url == "" {
		return nil, fmt.Errorf("bearer: %w: the issuer's metadata has no jwks_uri", ErrUnavailable)
	}
	body, header, err := s.v.get(ctx, url)
	if err != nil {
		return nil, err
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("bearer: %w: key set at %s: %v", ErrUnavailable, url, err)
	}
	snap := &keySnapshot{byID: map[string][]*key{}, fetched: now, expires: now.Add(keyAge(header))}
	for _, raw := range set.Keys {
		var jwk jose.JSONWebKey
		if json.Unmarshal(raw, &jwk) != nil || (jwk.Use != "" && jwk.Use != "sig") {
			continue
		}
		if !jwk.IsPublic() {
			jwk = jwk.Public()
		}
		thumb, err := jwk.Thumbprint(crypto.SHA256)
		if err != nil {
			continue
		}
		k := &key{jwk: jwk, thumb: string(thumb)}
		if old != nil {
			for _, o := range old.byID[jwk.KeyID] {
				if o.thumb == k.thumb && o.jwk.Algorithm == jwk.Algorithm {
					k = o
				}
			}
		}
		snap.byID[jwk.KeyID] = append(snap.byID[jwk.KeyID], k)
		snap.all = append(snap.all, k)
	}
	return snap, nil
}

// match returns the keys with kid (every key when the token names none)
// whose type, and alg if the key states one, fit alg.
func (snap *keySnapshot) match(kid, alg string) []*key {
	candidates := snap.all
	if kid != "" {
		candidates = snap.byID[kid]
	}
	var out []*key
	for _, k := range candidates {
		if (k.jwk.Algorithm == "" || k.jwk.Algorithm == alg) && fits(k.jwk.Key, alg) {
			if out == nil && len(candidates) == 1 {
				return candidates
			}
			out = append(out, k)
		}
	}
	return out
}

// fits reports whether a public key can verify alg: RSA for RS*/PS*, the
// curve of the algorithm for ES*, Ed25519 for EdDSA. A symmetric key in a
// JWKS fits nothing: it is never used as a shared secret (RFC 8725 §3.1).
func fits(pub any, alg string) bool {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS")
	case *ecdsa.PublicKey:
		switch alg {
		case "ES256":
			return k.Curve == elliptic.P256()
		case "ES384":
			return k.Curve == elliptic.P384()
		case "ES512":
			return k.Curve == elliptic.P521()
		}
	case ed25519.PublicKey:
		return alg == "EdDSA"
	}
	return false
}

// keyAge is how long to use a key set: Cache-Control max-age within
// [minKeyAge, maxKeyAge], defaultKeyAge without one.
func keyAge(h http.Header) time.Duration {
	for _, directive := range strings.Split(h.Get("Cache-Control"), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(directive), "=")
		if !strings.EqualFold(name, "max-age") {
			continue
		}
		secs, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64)
		if err != nil || secs < 0 {
			break
		}
		age := time.Duration(min(secs, int64(maxKeyAge/time.Second))) * time.Second
		return min(max(age, minKeyAge), maxKeyAge)
	}
	return defaultKeyAge
}
