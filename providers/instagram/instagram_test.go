package instagram

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
		{Name: "id", Got: c.ID, Want: "instagram"},
		{Name: "name", Got: c.Name, Want: "Instagram"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://api.instagram.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.instagram.com/oauth/access_token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://graph.instagram.com/me"},
		{Name: "scope", Got: scope, Want: "user_profile"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthClientSecretPost},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#fff"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "userinfo fields", Got: c.Userinfo.Params["fields"], Want: "id,username,account_type,name"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "personal account",
			JSON: `{"id": "17841405793187218", "username": "jayposiris", "account_type": "PERSONAL"}`,
			Want: profile.User{ID: "17841405793187218", Name: "jayposiris"},
		},
		{
			Name:    "no id",
			JSON:    `{"username": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
