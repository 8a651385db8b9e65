package facebook

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
		{Name: "id", Got: c.ID, Want: "facebook"},
		{Name: "name", Got: c.Name, Want: "Facebook"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://www.facebook.com/v19.0/dialog/oauth"},
		{Name: "token", Got: c.Token.URL, Want: "https://graph.facebook.com/oauth/access_token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://graph.facebook.com/me"},
		{Name: "scope", Got: scope, Want: "email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#006aff"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "userinfo fields", Got: c.Userinfo.Params["fields"], Want: "id,name,email,picture"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user with picture",
			JSON: `{"id": "10224141985638512", "name": "Amara Okafor", "email": "amara@example.ng",
		"picture": {"data": {"height": 50, "is_silhouette": false,
			"url": "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224141985638512&height=50&width=50&ext=1700000000&hash=AbC",
			"width": 50}}}`,
			Want: profile.User{ID: "10224141985638512", Name: "Amara Okafor", Email: "amara@example.ng", Image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224141985638512&height=50&width=50&ext=1700000000&hash=AbC"},
		},
		{
			Name: "no e-mail, no picture",
			JSON: `{"id": "42", "name": "No Mail"}`,
			Want: profile.User{ID: "42", Name: "No Mail"},
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
