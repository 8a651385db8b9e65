package descope

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "P2abcDEF123", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "descope"},
		{Name: "name", Got: c.Name, Want: "Descope"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer from the client id", Got: c.Issuer, Want: "https://api.descope.com/P2abcDEF123"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#1C1C23"}},
		{Name: "profile callback", Got: c.Profile == nil, Want: true},
		{Name: "explicit issuer kept", Got: New(providers.OIDCUserConfig[Profile]{ClientID: "P2abc", Issuer: "https://auth.acme.test/P2abc"}).Issuer, Want: "https://auth.acme.test/P2abc"},
		{Name: "no client id, no issuer", Got: New(providers.OIDCUserConfig[Profile]{}).Issuer, Want: ""},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"sub": "U2fTq8kLmN0pQrStUvWxYz", "name": "Dana Cohen", "email": "dana@acme.io",
		"email_verified": true, "phone_number": "+972501234567", "phone_number_verified": false,
		"picture": "https://static.descope.com/dana.png", "iss": "https://api.descope.com/P2abcDEF123",
		"aud": ["P2abcDEF123"], "tenants": {}}`,
			Want:     profile.User{ID: "U2fTq8kLmN0pQrStUvWxYz", Name: "Dana Cohen", Email: "dana@acme.io", Image: "https://static.descope.com/dana.png"},
			Verified: true,
		},
		{
			Name: "unverified address",
			JSON: `{"sub": "U9", "email": "x@acme.io", "email_verified": false}`,
			Want: profile.User{ID: "U9", Email: "x@acme.io"},
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
