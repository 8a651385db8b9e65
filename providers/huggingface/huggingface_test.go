package huggingface

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "huggingface"},
		{Name: "name", Got: c.Name, Want: "Hugging Face"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://huggingface.co"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState, providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#FFD21E"}},
		{Name: "profile callback", Got: c.Profile == nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "full profile",
			JSON: `{"sub": "64f0b7a2c3d4e5f6a7b8c9d0", "name": "Julien Chaumond",
		"preferred_username": "julien-c", "profile": "https://huggingface.co/julien-c",
		"picture": "https://cdn-avatars.huggingface.co/v1/production/uploads/julien-c.jpeg",
		"website": "https://example.fr", "email": "julien@example.fr", "email_verified": true,
		"isPro": true, "orgs": [{"sub": "5e67bd5b1009063689407478", "name": "Hugging Face",
		"picture": "https://cdn-avatars.huggingface.co/hf.png", "preferred_username": "huggingface",
		"isEnterprise": true, "roleInOrg": "admin"}]}`,
			Want:     profile.User{ID: "64f0b7a2c3d4e5f6a7b8c9d0", Name: "Julien Chaumond", Email: "julien@example.fr", Image: "https://cdn-avatars.huggingface.co/v1/production/uploads/julien-c.jpeg"},
			Verified: true,
		},
		{
			Name: "no name: the username",
			JSON: `{"sub": "65a1", "preferred_username": "tiny-llama-fan", "isPro": false}`,
			Want: profile.User{ID: "65a1", Name: "tiny-llama-fan"},
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
