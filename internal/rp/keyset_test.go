package rp

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

func sign(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, payload string) string {
	t.Helper()
	opts := &jose.SignerOptions{}
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := s.Sign([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	out, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeySetHS256: HS256 is verified with the client secret only when
// the provider pins it (OpenID Connect Core §10.1); never otherwise, and
// never with a key from the JWKS.
func TestKeySetHS256(t *testing.T) {
	secret := []byte("line-channel-secret-line-channel-secret")
	pinned := newKeySet("http://127.0.0.1:1/jwks", http.DefaultClient, time.Second, []string{"HS256"}, secret)
	good := sign(t, jose.HS256, secret, "", `{"sub":"u"}`)
	if p, err := pinned.VerifySignature(context.Background(), good); err != nil || string(p) != `{"sub":"u"}` {
		t.Fatalf("pinned HS256 with the client secret: %q %v", p, err)
	}
	forged := sign(t, jose.HS256, []byte("another-secret-another-secret-another"), "", `{"sub":"u"}`)
	if _, err := pinned.VerifySignature(context.Background(), forged); err == nil {
		t.Fatal("HS256 with another secret verified")
	}
	unpinned := newKeySet("http://127.0.0.1:1/jwks", http.DefaultClient, time.Second, []string{"RS256"}, nil)
	if _, err := unpinned.VerifySignature(context.Background(), good); err == nil {
		t.Fatal("HS256 verified for a provider that does not pin it")
	}
}

// TestParseJWKS: symmetric and private keys in a JWKS are never used;
// malformed members are skipped; an empty set is an error.
func TestParseJWKS(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, _ := json.Marshal(jose.JSONWebKey{Key: &priv.PublicKey, KeyID: "ec", Use: "sig"})
	private, _ := json.Marshal(jose.JSONWebKey{Key: priv, KeyID: "private"})
	oct := `{"kty":"oct","k":"c2VjcmV0","kid":"oct"}`
	keys, err := parseJWKS([]byte(`{"keys":[` + oct + `,` + string(private) + `,{"kty":"nonsense"},` + string(pub) + `]}`))
	if err != nil || len(keys) != 1 || keys[0].KeyID != "ec" {
		t.Fatalf("keys = %v, %v; want only the public EC key", keys, err)
	}
	for _, body := range []string{`{"keys":[]}`, `{"keys":[` + oct + `]}`, `[]`, `{`} {
		if _, err := parseJWKS([]byte(body)); err == nil {
			t.Errorf("parseJWKS(%s) accepted", body)
		}
	}
}

// TestKeySetConcurrentRefetch: many verifications that need a refetch at
// once make one JWKS request.
func TestKeySetConcurrentRefetch(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(50 * time.Millisecond)
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &priv.PublicKey, KeyID: "k1"}}})
	}))
	defer srv.Close()
	k := newKeySet(srv.URL, srv.Client(), time.Second, []string{"ES256"}, nil)
	tok := sign(t, jose.ES256, priv, "k1", "x")
	done := make(chan error, 20)
	for range 20 {
		go func() { _, err := k.VerifySignature(context.Background(), tok); done <- err }()
	}
	for range 20 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("%d JWKS requests for 20 concurrent first verifications", n)
	}
	if _, err := k.VerifySignature(context.Background(), strings.Repeat("x", 10)); err == nil {
		t.Fatal("garbage verified")
	}
}

// TestKeySetFailingJWKS: while the JWKS endpoint fails and no keys were
// ever fetched, verifications (a back-channel logout endpoint is open to
// anyone) refetch within the budget, not once each.
func TestKeySetFailingJWKS(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer srv.Close()
	k := newKeySet(srv.URL, srv.Client(), time.Second, []string{"ES256"}, nil)
	tok := sign(t, jose.ES256, priv, "k1", "x")
	for range 20 {
		if _, err := k.VerifySignature(context.Background(), tok); err == nil || !strings.Contains(err.Error(), "jwks") {
			t.Fatalf("err = %v, want the JWKS failure", err)
		}
	}
	if n := hits.Load(); n > 1+refetchBurst {
		t.Fatalf("%d JWKS requests for 20 verifications against a failing endpoint", n)
	}
}
