package coinbase

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
		{Name: "id", Got: c.ID, Want: "coinbase"},
		{Name: "name", Got: c.Name, Want: "Coinbase"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://login.coinbase.com/oauth2/auth"},
		{Name: "token", Got: c.Token.URL, Want: "https://login.coinbase.com/oauth2/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.coinbase.com/v2/user"},
		{Name: "scope", Got: scope, Want: "wallet:user:email wallet:user:read"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#0052ff"}},
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
			JSON: `{"data": {"id": "9da7a204-544e-5fd1-9a12-61176c5d4cd8", "name": "User One",
		"username": "user1", "profile_location": null, "profile_bio": null,
		"profile_url": "https://coinbase.com/user1",
		"avatar_url": "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh&s=128",
		"resource": "user", "resource_path": "/v2/user", "email": "user1@example.com",
		"time_zone": "Pacific Time (US & Canada)", "native_currency": "USD", "bitcoin_unit": "bits",
		"country": {"code": "US", "name": "United States of America", "is_in_europe": false},
		"created_at": "2015-01-31T20:49:02Z"}}`,
			Want: profile.User{ID: "9da7a204-544e-5fd1-9a12-61176c5d4cd8", Name: "User One", Email: "user1@example.com", Image: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh&s=128"},
		},
		{
			Name:    "no data.id",
			JSON:    `{"data": {"name": "x"}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
