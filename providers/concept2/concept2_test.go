package concept2

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
		{Name: "id", Got: c.ID, Want: "concept2"},
		{Name: "name", Got: c.Name, Want: "Concept2"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://log.concept2.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://log.concept2.com/oauth/access_token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://log.concept2.com/api/users/me"},
		{Name: "scope", Got: scope, Want: "user:read,results:write"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
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
			Name: "user",
			JSON: `{"data": {"id": 1, "username": "david", "first_name": "David", "last_name": "Hart",
		"gender": "M", "dob": "1969-04-09", "email": "david@example.com", "country": "USA",
		"profile_image": "https://log.concept2.com/profile/1/image.jpg", "age_restricted": false,
		"email_permission": null, "max_heart_rate": null, "weight": 8165, "logbook_privacy": "partners"}}`,
			Want: profile.User{ID: "1", Name: "david", Email: "david@example.com", Image: "https://log.concept2.com/profile/1/image.jpg"},
		},
		{
			Name:    "no data.id",
			JSON:    `{"data": {"username": "x"}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
