package rp

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// servedKeySet is a keySet whose JWKS endpoint serves set.
func servedKeySet(t *testing.T, set string, algs ...string) *keySet {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(set)) }))
	t.Cleanup(srv.Close)
	return newKeySet(srv.URL, srv.Client(), time.Second, algs, nil)
}

func jwk(t *testing.T, k jose.JSONWebKey, extra string) string {
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	if extra != "" {
		return strings.TrimSuffix(string(b), "}") + "," + extra + "}"
	}
	return string(b)
}

// TestKeyMusts: a provider key is used only as RFC 7517 and RFC 7518
// allow. Each refusal failed before: the token verified.
func TestKeyMusts(t *testing.T) {
	rsa1024, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsa2048, _ := rsa.GenerateKey(rand.Reader, 2048)
	const payload = `{"sub":"u"}`
	for _, tc := range []struct {
		name  string
		key   jose.JSONWebKey
		extra string
		priv  any
		ok    bool
	}{
		{"RSA 2048, alg RS256", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k", Algorithm: "RS256", Use: "sig"}, "", rsa2048, true},
		{"RSA 2048, no alg or use", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k"}, "", rsa2048, true},
		{"RSA 1024 (RFC 7518 §3.3)", jose.JSONWebKey{Key: &rsa1024.PublicKey, KeyID: "k"}, "", rsa1024, false},
		{"alg RS384 for an RS256 token (RFC 7517 §4.4)", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k", Algorithm: "RS384"}, "", rsa2048, false},
		{"use enc (RFC 7517 §4.2)", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k", Use: "enc"}, "", rsa2048, false},
		{"key_ops without verify (RFC 7517 §4.3)", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k"}, `"key_ops":["encrypt"]`, rsa2048, false},
		{"key_ops with verify", jose.JSONWebKey{Key: &rsa2048.PublicKey, KeyID: "k"}, `"key_ops":["verify"]`, rsa2048, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := `{"keys":[` + jwk(t, tc.key, tc.extra) + `]}`
			if _, err := servedKeySet(t, set, "RS256").VerifySignature(context.Background(), sign(t, jose.RS256, tc.priv, "k", payload)); (err == nil) != tc.ok {
				t.Fatalf("verified: %v, want %v", err == nil, tc.ok)
			}
		})
	}
	// The key's type and curve must be the algorithm's (RFC 7518 §3.1).
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	edPub, _, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		key jose.JSONWebKey
		alg string
		ok  bool
	}{
		{jose.JSONWebKey{Key: &p256.PublicKey}, "ES256", true},
		{jose.JSONWebKey{Key: &p384.PublicKey}, "ES256", false},
		{jose.JSONWebKey{Key: &p384.PublicKey}, "ES384", true},
		{jose.JSONWebKey{Key: &p256.PublicKey}, "RS256", false},
		{jose.JSONWebKey{Key: &rsa2048.PublicKey}, "ES256", false},
		{jose.JSONWebKey{Key: &rsa2048.PublicKey}, "PS256", true},
		{jose.JSONWebKey{Key: edPub}, "EdDSA", true},
		{jose.JSONWebKey{Key: edPub}, "ES256", false},
	} {
		if err := keyFits(tc.key, tc.alg); (err == nil) != tc.ok {
			t.Errorf("keyFits(%T, %s) = %v, want ok %v", tc.key.Key, tc.alg, err, tc.ok)
		}
	}
	// A signature by a 1024-bit key is refused even when it is the one
	// key and has the token's kid.
	set := `{"keys":[` + jwk(t, jose.JSONWebKey{Key: &rsa1024.PublicKey, KeyID: "small", Algorithm: "RS256"}, "") + `]}`
	if _, err := servedKeySet(t, set, "RS256").VerifySignature(context.Background(), sign(t, jose.RS256, rsa1024, "small", payload)); err == nil {
		t.Fatal("a 1024-bit RSA signature verified")
	}
}

// TestTokenTypeMust: RFC 6749 §5.1 token_type is required, and must be
// Bearer or (with DPoP) DPoP, in any case. Failed before: a missing
// token_type was accepted.
func TestTokenTypeMust(t *testing.T) {
	for _, tc := range []struct {
		tokenType string
		dpop      bool
		code      string
	}{
		{"Bearer", false, ""},
		{"bearer", false, ""},
		{"BEARER", true, ""},
		{"DPoP", true, ""},
		{"dpop", true, ""},
		{"DPoP", false, "token_type"},
		{"", false, "token_type_missing"},
		{"mac", false, "token_type"},
	} {
		p := New(&providers.OAuth{Base: providers.Base{ID: "x"}, Client: providers.Client{DPoPBoundAccessTokens: tc.dpop}}, nil, 0, 0)
		err := p.checkTokenType(account.TokenSet{AccessToken: "a", TokenType: tc.tokenType}, "token")
		var ge *autherr.Error
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("token_type %q (dpop %v): %v", tc.tokenType, tc.dpop, err)
		case tc.code != "" && (err == nil || !asErr(err, &ge) || ge.Code != tc.code):
			t.Errorf("token_type %q (dpop %v): %v, want code %s", tc.tokenType, tc.dpop, err, tc.code)
		}
	}
}

func asErr(err error, target **autherr.Error) bool {
	e, ok := err.(*autherr.Error)
	*target = e
	return ok
}
