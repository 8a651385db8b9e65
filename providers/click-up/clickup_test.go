package clickup

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
		{Name: "id", Got: c.ID, Want: "click-up"},
		{Name: "name", Got: c.Name, Want: "ClickUp"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://app.clickup.com/api"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.clickup.com/api/v2/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.clickup.com/api/v2/user"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#24292f"}},
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
			Name: "user: no e-mail or image mapped",
			JSON: `{"user": {"id": 123, "username": "John Doe", "color": "#000000",
		"profilePicture": "https://attachments.clickup.com/profilePictures/123_abc.jpg"}}`,
			Want: profile.User{ID: "123", Name: "John Doe"},
		},
		{
			Name:    "no user id",
			JSON:    `{"user": {"username": "x"}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
