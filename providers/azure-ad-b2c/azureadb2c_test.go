package azureadb2c

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "azure-ad-b2c"},
		{Name: "name", Got: c.Name, Want: "Azure Active Directory B2C"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#0072c6"}},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "wellKnown helper", Got: WellKnown("contoso", "B2C_1_signupsignin"), Want: "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate with an issuer: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate without an issuer passed, want an error")
	}
}
