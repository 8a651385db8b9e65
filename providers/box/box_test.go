package box

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
		{Name: "id", Got: c.ID, Want: "box"},
		{Name: "name", Got: c.Name, Want: "Box"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://account.box.com/api/oauth2/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://api.box.com/oauth2/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://api.box.com/2.0/users/me"},
		{Name: "scope set", Got: hasScope, Want: false},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#0075C9"}},
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
			JSON: `{"type": "user", "id": "11446498", "name": "Aaron Levie", "login": "ceo@example.com",
		"created_at": "2012-12-12T10:53:43-08:00", "modified_at": "2012-12-12T10:53:43-08:00",
		"language": "en", "timezone": "Africa/Bujumbura", "space_amount": 11345156112,
		"space_used": 1237009912, "max_upload_size": 2147483648, "status": "active",
		"job_title": "CEO", "phone": "6509241374", "address": "900 Jefferson Ave, Redwood City, CA 94063",
		"avatar_url": "https://www.box.com/api/avatar/large/181216415"}`,
			Want: profile.User{ID: "11446498", Name: "Aaron Levie", Email: "ceo@example.com", Image: "https://www.box.com/api/avatar/large/181216415"},
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
