package pingid

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://auth.pingone.com/8a2f6c3e-1d4b-4e5f-9a0b-1c2d3e4f5a6b/as"

func TestConfig(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: issuer})
	o := c.OAuth()
	want := providertest.Config{
		ID: "ping-id", Name: "Ping Identity", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     issuer,
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{},
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
