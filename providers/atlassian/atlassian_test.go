package atlassian

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
		{Name: "id", Got: c.ID, Want: "atlassian"},
		{Name: "name", Got: c.Name, Want: "Atlassian"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://auth.atlassian.com/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://auth.atlassian.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.atlassian.com/me"},
		{Name: "scope", Got: scope, Want: "read:me"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#fff"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "audience", Got: c.Authorization.Params["audience"], Want: "api.atlassian.com"},
		{Name: "prompt", Got: c.Authorization.Params["prompt"], Want: "consent"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "account",
			JSON: `{"account_type": "atlassian", "account_id": "5b10ac8d82e05b22cc7d4ef5",
		"email": "mia@example.com", "email_verified": true, "name": "Mia Krystof",
		"picture": "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10ac8d82e05b22cc7d4ef5/1a2b3c.png",
		"account_status": "active", "nickname": "mia", "zoneinfo": "Australia/Sydney", "locale": "en-US",
		"extended_profile": {"job_title": "Designer", "organization": "Acme", "department": "Design", "location": "Sydney"}}`,
			Want: profile.User{ID: "5b10ac8d82e05b22cc7d4ef5", Name: "Mia Krystof", Email: "mia@example.com", Image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10ac8d82e05b22cc7d4ef5/1a2b3c.png"},
		},
		{
			Name:    "no account id",
			JSON:    `{"name": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
