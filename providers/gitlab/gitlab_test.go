package gitlab

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	selfManaged := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://gitlab.example.com/"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "gitlab"},
		{Name: "name", Got: c.Name, Want: "GitLab"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://gitlab.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://gitlab.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://gitlab.com/api/v4/user"},
		{Name: "scope", Got: scope, Want: "read_user"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#FC6D26"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "self-managed authorization", Got: selfManaged.Authorization.URL, Want: "https://gitlab.example.com/oauth/authorize"},
		{Name: "self-managed token", Got: selfManaged.Token.URL, Want: "https://gitlab.example.com/oauth/token"},
		{Name: "self-managed userinfo", Got: selfManaged.Userinfo.URL, Want: "https://gitlab.example.com/api/v4/user"},
		{Name: "self-managed issuer", Got: selfManaged.Issuer, Want: "https://gitlab.example.com/"},
	})
	if err := selfManaged.OAuth().Validate(); err != nil {
		t.Errorf("Validate (self-managed): %v", err)
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}
