package figma

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
		{Name: "id", Got: c.ID, Want: "figma"},
		{Name: "name", Got: c.Name, Want: "Figma"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://www.figma.com/oauth"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.figma.com/v1/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.figma.com/v1/me"},
		{Name: "scope", Got: scope, Want: "files:read"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#ff7237"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"id": "1234567890123456789", "email": "oscar@example.com", "handle": "Oscar Ortiz",
		"img_url": "https://s3-alpha.figma.com/profile/1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"}`,
			Want: profile.User{ID: "1234567890123456789", Name: "Oscar Ortiz", Email: "oscar@example.com", Image: "https://s3-alpha.figma.com/profile/1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"},
		},
		{
			Name:    "no id",
			JSON:    `{"handle": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
