package bitbucket

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
		{Name: "id", Got: c.ID, Want: "bitbucket"},
		{Name: "name", Got: c.Name, Want: "Bitbucket"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://bitbucket.org/site/oauth2/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://bitbucket.org/site/oauth2/access_token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.bitbucket.org/2.0/user"},
		{Name: "scope", Got: scope, Want: "account"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#205081"}},
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
			JSON: `{"display_name": "Tamsin Ellery", "links": {
		"self": {"href": "https://api.bitbucket.org/2.0/users/%7B3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8%7D"},
		"avatar": {"href": "https://secure.gravatar.com/avatar/6e3a?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-3.png"},
		"html": {"href": "https://bitbucket.org/%7B3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8%7D/"}},
		"created_on": "2019-03-04T10:11:12.000000+00:00", "type": "user",
		"uuid": "{3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8}", "has_2fa_enabled": null,
		"username": "tellery", "is_staff": false, "account_id": "557058:0c2d6f5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
		"nickname": "Tamsin", "account_status": "active", "location": null}`,
			Want: profile.User{ID: "557058:0c2d6f5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f", Name: "Tamsin Ellery", Image: "https://secure.gravatar.com/avatar/6e3a?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-3.png"},
		},
		{
			Name: "no display name: the username",
			JSON: `{"account_id": "557058:1", "username": "tellery", "display_name": "", "links": {}}`,
			Want: profile.User{ID: "557058:1", Name: "tellery"},
		},
		{
			Name:    "no account id",
			JSON:    `{"username": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
