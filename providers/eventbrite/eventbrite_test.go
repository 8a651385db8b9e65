package eventbrite

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
		{Name: "id", Got: c.ID, Want: "eventbrite"},
		{Name: "name", Got: c.Name, Want: "Eventbrite"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://www.eventbrite.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://www.eventbrite.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://www.eventbriteapi.com/v3/users/me/"},
		{Name: "scope", Got: scope, Want: "user.profile"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthClientSecretPost},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#f05537"}},
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
			Name: "primary address and picture",
			JSON: `{"emails": [{"email": "old@example.com", "verified": true, "primary": false},
		{"email": "rosa@example.com", "verified": true, "primary": true}],
		"id": "1234567890", "name": "Rosa Parra", "first_name": "Rosa", "last_name": "Parra",
		"is_public": false, "image_id": "98765432"}`,
			Want: profile.User{ID: "1234567890", Name: "Rosa Parra", Email: "rosa@example.com", Image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F98765432%2F1%2Foriginal.jpg"},
		},
		{
			Name: "no primary address, no picture",
			JSON: `{"emails": [{"email": "a@example.com", "verified": false, "primary": false}],
		"id": "55", "name": "A", "image_id": null}`,
			Want: profile.User{ID: "55", Name: "A"},
		},
		{
			Name:    "no id",
			JSON:    `{"name": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
