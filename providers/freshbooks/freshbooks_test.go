package freshbooks

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
		{Name: "id", Got: c.ID, Want: "freshbooks"},
		{Name: "name", Got: c.Name, Want: "Freshbooks"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://auth.freshbooks.com/service/auth/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.freshbooks.com/auth/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.freshbooks.com/auth/api/v1/users/me"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#0075dd"}},
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
			Name: "identity",
			JSON: `{"response": {"id": 2192788, "identity_id": 2192788,
		"identity_uuid": "0f4e2b8a-6c1d-4e3f-9a7b-5d2c1e0f9a8b", "first_name": "Sofia",
		"last_name": "Lindqvist", "email": "sofia@example.se", "language": "en",
		"confirmed_at": "2021-05-01T12:00:00Z", "created_at": "2021-04-30T09:15:00Z",
		"setup_complete": true, "phone_numbers": [], "addresses": [], "business_memberships": []}}`,
			Want: profile.User{ID: "2192788", Name: "Sofia Lindqvist", Email: "sofia@example.se"},
		},
		{
			Name: "first name only",
			JSON: `{"response": {"id": 7, "first_name": "Sofia", "last_name": null}}`,
			Want: profile.User{ID: "7", Name: "Sofia"},
		},
		{
			Name:    "no id",
			JSON:    `{"response": {"first_name": "x"}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
