package line

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "1654321987", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "line"},
		{Name: "name", Got: c.Name, Want: "LINE"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://access.line.me"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "id token alg", Got: c.Client.IDTokenSignedResponseAlg, Want: "HS256"},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#00C300"}},
		{Name: "profile callback", Got: c.Profile == nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "id token claims",
			JSON: `{"iss": "https://access.line.me", "sub": "U1234567890abcdef1234567890abcdef",
		"aud": "1654321987", "exp": 1504169092, "iat": 1504263657, "nonce": "0987654asdf",
		"amr": ["pwd"], "name": "Taro Line",
		"picture": "https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEkwnPRkufGxZFjMJRUB9bE0reHtVdj4L", "email": "taro.line@example.com"}`,
			Want: profile.User{ID: "U1234567890abcdef1234567890abcdef", Name: "Taro Line", Email: "taro.line@example.com", Image: "https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEkwnPRkufGxZFjMJRUB9bE0reHtVdj4L"},
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
