package passage

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://auth.passage.id/v1/apps/AbCdEfGhIjKl"

func TestConfig(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: issuer})
	o := c.OAuth()
	want := providertest.Config{
		ID: "passage", Name: "Passage", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     issuer,
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		AuthMethod: providers.AuthClientSecretBasic,
		Style:      providers.Style{BrandColor: "#3d53f6"},
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
