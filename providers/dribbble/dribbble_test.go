package dribbble

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
		{Name: "id", Got: c.ID, Want: "dribbble"},
		{Name: "name", Got: c.Name, Want: "Dribbble"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://dribbble.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://dribbble.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.dribbble.com/v2/user"},
		{Name: "scope", Got: scope, Want: "public"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#000"}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "upload scope", Got: New(providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": ScopeUpload}}}).Authorization.Params["scope"], Want: "public upload"},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "player",
			JSON: `{"id": 1, "name": "Dan Cederholm", "login": "simplebits",
		"html_url": "https://dribbble.com/simplebits",
		"avatar_url": "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243",
		"bio": "Co-founder &amp; designer of <a href=\"https://dribbble.com/dribbble\">@Dribbble</a>.",
		"location": "Salem, MA", "links": {"web": "http://simplebits.com", "twitter": "https://twitter.com/simplebits"},
		"can_upload_shot": true, "pro": true, "followers_count": 29262,
		"created_at": "2009-07-08T02:51:22Z", "type": "Player", "teams": []}`,
			Want: profile.User{ID: "1", Name: "Dan Cederholm", Image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243"},
		},
		{
			Name: "with e-mail",
			JSON: `{"id": 42, "name": "Ana", "email": "ana@example.com", "avatar_url": null}`,
			Want: profile.User{ID: "42", Name: "Ana", Email: "ana@example.com"},
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
