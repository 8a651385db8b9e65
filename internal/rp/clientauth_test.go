package rp

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestAssertionAudience(t *testing.T) {
	const token = "https://as.example/oauth/token"
	for _, tc := range []struct {
		e    Endpoints
		want string
	}{
		{Endpoints{Issuer: "https://as.example"}, "https://as.example"},
		// No issuer (an OAuth provider configured by URLs): the endpoint.
		{Endpoints{}, token},
		// A per-tenant template is no issuer of anyone's.
		{Endpoints{Issuer: "https://login.example/{tenantid}/v2.0", perTenant: true}, token},
	} {
		if got := assertionAudience(&tc.e, token); got != tc.want {
			t.Errorf("assertionAudience(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// runtimeWith is a Provider for client c, not served.
func runtimeWith(c providers.Client) *Provider {
	return New(&providers.OAuth{Base: providers.Base{ID: "p"}, ClientID: "client", Client: c}, http.DefaultClient, 0, 0)
}

func TestClientAssertionClaims(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p := runtimeWith(providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: k, KeyID: "k"}}}})
	raw, err := p.clientAssertion("https://as.example")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	var c jwt.Claims
	var aud struct {
		Aud any `json:"aud"`
	}
	if err := tok.Claims(&k.PublicKey, &c, &aud); err != nil {
		t.Fatal(err)
	}
	// aud a single string, never an array (audience injection).
	if aud.Aud != "https://as.example" || c.Issuer != "client" || c.Subject != "client" || c.ID == "" ||
		c.Expiry.Time().Sub(c.IssuedAt.Time()) != assertionLifetime || tok.Headers[0].KeyID != "k" {
		t.Fatalf("assertion claims %+v, aud %#v, kid %q", c, aud.Aud, tok.Headers[0].KeyID)
	}
}

func BenchmarkClientAssertion(b *testing.B) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rs, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, bc := range []struct {
		name string
		c    providers.Client
	}{
		{"ES256", providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: ec, KeyID: "k"}}}}},
		{"RS256", providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: rs, KeyID: "k"}}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := runtimeWith(bc.c)
			for b.Loop() {
				if _, err := p.clientAssertion("https://as.example"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDPoPProof(b *testing.B) {
	p := runtimeWith(providers.Client{DPoPBoundAccessTokens: true})
	req, _ := http.NewRequest(http.MethodGet, "https://api.example/v1/items?page=2", nil)
	for b.Loop() {
		if err := p.addProof(req, "access-token"); err != nil {
			b.Fatal(err)
		}
	}
}
