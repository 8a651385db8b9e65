package rp

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// JWKS refetch budget: a token naming a key the cache lacks (a rotation,
// or an attacker's random kid) may trigger a refetch, but only while the
// budget lasts: refetchBurst at once, then one per refetchEvery. go-oidc's
// RemoteKeySet deduplicates concurrent refetches but does not limit them,
// so a stream of tokens with random kids (a back-channel logout endpoint
// is open to anyone) would make us hammer the provider's JWKS endpoint.
const (
	refetchBurst = 3
	refetchEvery = 10 * time.Second
)

// keySet is the oidc.KeySet of one provider: the keys of its JWKS,
// cached, refetched within the budget above. Verification is go-jose's;
// only key selection is ours. A provider that pins HS256 (OpenID Connect
// Core §10.1: the client secret is the HMAC key) gets hmacKey; otherwise
// symmetric algorithms never reach it (see resolve).
type keySet struct {
	url     string
	client  *http.Client
	timeout time.Duration
	algs    []jose.SignatureAlgorithm
	hmacKey []byte

	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched bool
	budget  float64
	refill  time.Time
	// fetching is closed when the fetch in flight ends: concurrent
	// refetches share one request.
	fetching chan struct{}
	fetchErr error
}

func newKeySet(url string, client *http.Client, timeout time.Duration, algs []string, hmacKey []byte) *keySet {
	k := &keySet{url: url, client: client, timeout: timeout, hmacKey: hmacKey, budget: refetchBurst, refill: time.Now()}
	for _, a := range algs {
		k.algs = append(k.algs, jose.SignatureAlgorithm(a))
	}
	return k
}

var errUnknownKey = errors.New("no key of the provider's JWKS verifies the signature")

// VerifySignature verifies the compact JWS raw and returns its payload
// (the oidc.KeySet interface).
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSignedCompact(raw, k.algs)
	if err != nil {
		return nil, fmt.Errorf("malformed jws: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("not exactly one signature")
	}
	h := jws.Signatures[0].Header
	if h.Algorithm == string(jose.HS256) {
		if k.hmacKey == nil {
			return nil, errors.New("HS256 is not pinned for this provider")
		}
		return jws.Verify(k.hmacKey)
	}
	keys, err := k.current(ctx, false)
	if err != nil {
		return nil, err
	}
	if p, ok := verifyWith(jws, keys, h.KeyID, h.Algorithm); ok {
		return p, nil
	}
	// An unknown key: the provider may have rotated. Refetch if the
	// budget allows.
	if !k.spend(time.Now()) {
		return nil, fmt.Errorf("%w (refetch budget spent)", errUnknownKey)
	}
	if keys, err = k.current(ctx, true); err != nil {
		return nil, err
	}
	if p, ok := verifyWith(jws, keys, h.KeyID, h.Algorithm); ok {
		return p, nil
	}
	return nil, errUnknownKey
}

// verifyWith tries the keys named kid, or every key when kid is empty
// (rp-id_token-kid-absent-*: a JWKS of one key needs no kid).
func verifyWith(jws *jose.JSONWebSignature, keys []jose.JSONWebKey, kid, alg string) ([]byte, bool) {
	for _, key := range keys {
		if kid != "" && key.KeyID != kid {
			continue
		}
		if keyFits(key, alg) != nil {
			continue
		}
		if p, err := jws.Verify(&key); err == nil {
			return p, true
		}
	}
	return nil, false
}

// keyFits reports why key must not verify a signature made with alg, or
// nil. Cheap checks, made before any signature is verified:
//   - a key for another use: "use" must be "sig" when present (RFC 7517 §4.2);
//   - a key for another algorithm: "alg" must be the token's when present
//     (RFC 7517 §4.4);
//   - the key type and curve the algorithm needs (RFC 7518 §3.1): RSA for
//     RS*/PS*, the curve of ES256 (P-256), ES384 (P-384), ES512 (P-521),
//     Ed25519 for EdDSA (RFC 8037);
//   - an RSA key of at least 2048 bits (RFC 7518 §3.3, §3.5).
//
// key_ops is checked when the set is read (parseJWKS).
func keyFits(key jose.JSONWebKey, alg string) error {
	if key.Use != "" && key.Use != "sig" {
		return fmt.Errorf("key %q is for use %q, not sig", key.KeyID, key.Use)
	}
	if key.Algorithm != "" && key.Algorithm != alg {
		return fmt.Errorf("key %q is for alg %s, the token is %s", key.KeyID, key.Algorithm, alg)
	}
	switch k := key.Key.(type) {
	case *rsa.PublicKey:
		if !strings.HasPrefix(alg, "RS") && !strings.HasPrefix(alg, "PS") {
			return fmt.Errorf("key %q is RSA, the token is %s", key.KeyID, alg)
		}
		if n := k.N.BitLen(); n < providers.MinRSABits {
			return fmt.Errorf("key %q is RSA of %d bits, under %d (RFC 7518 §3.3)", key.KeyID, n, providers.MinRSABits)
		}
	case *ecdsa.PublicKey:
		want := map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()}[alg]
		if want == nil || k.Curve != want {
			return fmt.Errorf("key %q is on curve %s, the token is %s", key.KeyID, k.Curve.Params().Name, alg)
		}
	case ed25519.PublicKey:
		if alg != string(jose.EdDSA) {
			return fmt.Errorf("key %q is Ed25519, the token is %s", key.KeyID, alg)
		}
	default:
		return fmt.Errorf("key %q of type %T cannot verify %s", key.KeyID, key.Key, alg)
	}
	return nil
}

// spend takes one refetch from the budget, refilled at one per
// refetchEvery up to refetchBurst.
func (k *keySet) spend(now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.spendLocked(now)
}

func (k *keySet) spendLocked(now time.Time) bool {
	k.budget = min(refetchBurst, k.budget+now.Sub(k.refill).Seconds()/refetchEvery.Seconds())
	k.refill = now
	if k.budget < 1 {
		return false
	}
	k.budget--
	return true
}

// current returns the cached keys, fetching them when there are none yet
// or when refresh is set. Concurrent callers share one fetch. While no
// fetch has succeeded, a retry after a failed one is taken from the
// refetch budget too.
func (k *keySet) current(ctx context.Context, refresh bool) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	if k.fetched && !refresh && k.fetching == nil {
		keys := k.keys
		k.mu.Unlock()
		return keys, nil
	}
	ch := k.fetching
	if ch == nil {
		if !k.fetched && k.fetchErr != nil && !k.spendLocked(time.Now()) {
			err := k.fetchErr
			k.mu.Unlock()
			return nil, fmt.Errorf("%w (refetch budget spent)", err)
		}
		ch = make(chan struct{})
		k.fetching = ch
		go k.fetch(ch)
	}
	k.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.fetched {
		return nil, k.fetchErr
	}
	return k.keys, nil
}

// fetch gets the JWKS, detached from any one request (a request that
// gives up does not waste the fetch for the others), bounded by the
// provider timeout.
func (k *keySet) fetch(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), k.timeout)
	defer cancel()
	keys, err := k.get(ctx)
	k.mu.Lock()
	if err == nil {
		k.keys, k.fetched = keys, true
	}
	// A failed fetch keeps the keys already known.
	k.fetchErr = err
	k.fetching = nil
	k.mu.Unlock()
	close(done)
}

func (k *keySet) get(ctx context.Context) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("jwks %s: %w", k.url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("jwks %s: %w", k.url, err)
	}
	if len(body) > providers.MaxResponseBytes {
		return nil, fmt.Errorf("jwks %s: %w", k.url, errBodyTooLarge)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("jwks %s answered %d", k.url, resp.StatusCode)
	}
	return parseJWKS(body)
}

// parseJWKS decodes a JWK Set (RFC 7517 §5), keeping the public keys
// go-jose understands and skipping the others (RFC 7517 §5: a set may
// hold keys the client does not know how to use). A set with no usable
// key is an error.
func parseJWKS(body []byte) ([]jose.JSONWebKey, error) {
	var raw struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("jwks: not a JWK Set: %w", err)
	}
	var keys []jose.JSONWebKey
	for _, r := range raw.Keys {
		var key jose.JSONWebKey
		if key.UnmarshalJSON(r) != nil || !key.Valid() || !key.IsPublic() {
			continue
		}
		// key_ops, when present, must allow "verify" (RFC 7517 §4.3);
		// go-jose does not keep the member, so it is read here.
		var ops struct {
			KeyOps []string `json:"key_ops"`
		}
		if json.Unmarshal(r, &ops) == nil && ops.KeyOps != nil && !slices.Contains(ops.KeyOps, "verify") {
			continue
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, errors.New("jwks: no usable public key")
	}
	return keys, nil
}
