package hydra

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://auth.example.com"

func TestConfig(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: issuer})
	o := c.OAuth()
	want := providertest.Config{
		ID: "hydra", Name: "Ory Hydra", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     issuer,
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#fff"},
	}
	providertest.CheckConfig(t, o, want)
	if c.Profile != nil {
		t.Error("Profile is set; the default OpenID Connect mapping applies")
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts the provider without an issuer")
	}
}

func TestMapProfile(t *testing.T) {
	providertest.CheckStandardClaims(t, New(providers.OIDCUserConfig[Profile]{ClientID: "cid", Issuer: issuer}).OAuth(), issuer)
}
