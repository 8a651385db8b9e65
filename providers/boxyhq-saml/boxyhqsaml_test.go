package boxyhqsaml

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "dummy", ClientSecret: "dummy", Issuer: "https://jackson.acme.test/"})
	withTenant := New(providers.OAuthUserConfig[Profile]{Issuer: "https://jackson.acme.test",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"tenant": "acme.com", "product": "crm"}}})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "boxyhq-saml"},
		{Name: "name", Got: c.Name, Want: "BoxyHQ SAML"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "issuer", Got: c.Issuer, Want: "https://jackson.acme.test/"},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://jackson.acme.test/api/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://jackson.acme.test/api/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://jackson.acme.test/api/oauth/userinfo"},
		{Name: "provider param", Got: c.Authorization.Params["provider"], Want: "saml"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#25c2a0"}},
		{Name: "tenant and product kept", Got: withTenant.Authorization.Params, Want: map[string]string{"provider": "saml", "tenant": "acme.com", "product": "crm"}},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	noIssuer := New(providers.OAuthUserConfig[Profile]{ClientID: "dummy"})
	if noIssuer.Authorization.URL != "" || noIssuer.OAuth().Validate() == nil {
		t.Errorf("without an issuer: authorization %q and Validate passed, want no endpoints and an error", noIssuer.Authorization.URL)
	}
}
