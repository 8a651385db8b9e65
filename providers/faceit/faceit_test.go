package faceit

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "faceit"},
		{Name: "name", Got: c.Name, Want: "FACEIT"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://accounts.faceit.com/accounts"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.faceit.com/auth/v1/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.faceit.com/auth/v1/resources/userinfo"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "redirect_popup", Got: c.Authorization.Params["redirect_popup"], Want: "true"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"guid": "0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e", "name": "Lena Vogel",
		"nickname": "lenav", "given_name": "Lena", "family_name": "Vogel",
		"email": "lena@example.de", "picture": "https://assets.faceit-cdn.net/avatars/0b1c2d3e.jpg",
		"locale": "de"}`,
			Want: profile.User{ID: "0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e", Name: "Lena Vogel", Email: "lena@example.de", Image: "https://assets.faceit-cdn.net/avatars/0b1c2d3e.jpg"},
		},
		{
			Name:    "no guid",
			JSON:    `{"nickname": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
