package rp

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestLogoutTokenTenantIssuer: under a per-tenant issuer template
// (Microsoft's common endpoint), go-oidc's issuer check is off, so a
// logout token's iss must match its tid as an ID token's does.
func TestLogoutTokenTenantIssuer(t *testing.T) {
	const tmpl = "https://login.microsoftonline.com/{tenantid}/v2.0"
	const tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	e := &Endpoints{Issuer: tmpl, perTenant: true}
	e.verifier = oidc.NewVerifier(tmpl, &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{&k.PublicKey}},
		&oidc.Config{ClientID: "cid", SupportedSigningAlgs: []string{"ES256"}, SkipIssuerCheck: true})
	p := New(&providers.OAuth{}, nil, time.Minute, 0)
	p.cfg.ClientID = "cid"
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	token := func(jti, iss string) string {
		tok, err := jwt.Signed(s).Claims(map[string]any{
			"iss": iss, "aud": "cid", "sub": "u1", "tid": tid, "jti": jti,
			"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
			"events": map[string]any{backchannelEvent: map[string]any{}},
		}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	good := "https://login.microsoftonline.com/" + tid + "/v2.0"
	if _, err := p.VerifyLogoutToken(context.Background(), e, token("a", good), now); err != nil {
		t.Fatalf("the tenant's own issuer refused: %v", err)
	}
	for _, iss := range []string{
		"https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0",
		"https://evil.example/",
	} {
		if _, err := p.VerifyLogoutToken(context.Background(), e, token("b-"+iss, iss), now); err == nil {
			t.Errorf("a logout token with iss %q and tid %q was accepted", iss, tid)
		}
	}
}
