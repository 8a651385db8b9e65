package eveonline

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
		{Name: "id", Got: c.ID, Want: "eveonline"},
		{Name: "name", Got: c.Name, Want: "EVE Online"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://login.eveonline.com/v2/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://login.eveonline.com/v2/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://login.eveonline.com/oauth/verify"},
		{Name: "scope", Got: scope, Want: "publicData"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
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
			Name: "character",
			JSON: `{"CharacterID": 95465499, "CharacterName": "CCP Bartender",
		"ExpiresOn": "2017-07-05T14:34:16.5857101", "Scopes": "publicData",
		"TokenType": "Character", "CharacterOwnerHash": "lots_of_letters_and_numbers",
		"IntellectualProperty": "EVE"}`,
			Want: profile.User{ID: "95465499", Name: "CCP Bartender", Image: "https://image.eveonline.com/Character/95465499_128.jpg"},
		},
		{
			Name:    "no character id",
			JSON:    `{"CharacterName": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
