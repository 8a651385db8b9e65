package beyondidentity

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "beyondidentity"},
		{Name: "name", Got: c.Name, Want: "Beyond Identity"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#5077c5"}},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate with an issuer: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate without an issuer passed, want an error")
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"sub": "c2a1b0e9-8f7d-4c6b-a5e4-d3c2b1a09f8e", "name": "Priya Raman",
		"preferred_username": "priya", "email": "priya@acme.in",
		"iss": "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f", "aud": "cid"}`,
			Want: profile.User{ID: "c2a1b0e9-8f7d-4c6b-a5e4-d3c2b1a09f8e", Name: "Priya Raman", Email: "priya@acme.in"},
		},
		{
			Name:    "no sub",
			JSON:    `{"name": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
