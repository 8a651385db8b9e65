package frontegg

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://acme.frontegg.com/"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "frontegg"},
		{Name: "name", Got: c.Name, Want: "Frontegg"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://acme.frontegg.com/"},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://acme.frontegg.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://acme.frontegg.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://acme.frontegg.com/identity/resources/users/v2/me"},
		{Name: "wellKnown", Got: c.WellKnown, Want: "https://acme.frontegg.com/oauth/.well-known/openid-configuration"},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
		{Name: "profile callback", Got: c.Profile == nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	noIssuer := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"})
	if noIssuer.Authorization.URL != "" || noIssuer.OAuth().Validate() == nil {
		t.Errorf("without an issuer: authorization %q and Validate passed, want no endpoints and an error", noIssuer.Authorization.URL)
	}
}
