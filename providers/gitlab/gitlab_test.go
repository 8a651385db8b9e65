package gitlab

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
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

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "user",
			JSON: `{"id": 1, "username": "john_smith", "name": "John Smith", "state": "active",
		"locked": false, "avatar_url": "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg",
		"web_url": "https://gitlab.com/john_smith", "created_at": "2012-05-23T08:00:58Z",
		"bio": "", "location": null, "public_email": "john@example.com", "linkedin": "", "twitter": "",
		"website_url": "", "organization": "", "job_title": "Operations Specialist", "bot": false,
		"last_sign_in_at": "2012-06-01T11:41:01Z", "confirmed_at": "2012-05-23T09:05:22Z",
		"email": "john@example.com", "theme_id": 1, "color_scheme_id": 2, "projects_limit": 100,
		"identities": [], "can_create_group": true, "can_create_project": true,
		"two_factor_enabled": true, "external": false, "private_profile": false,
		"commit_email": "john-codes@example.com"}`,
			Want: profile.User{ID: "1", Name: "John Smith", Email: "john@example.com", Image: "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg"},
		},
		{
			Name: "no name: the username",
			JSON: `{"id": 7, "username": "jsmith", "name": "", "email": "j@example.com", "avatar_url": null}`,
			Want: profile.User{ID: "7", Name: "jsmith", Email: "j@example.com"},
		},
		{
			Name: "OpenID userinfo: sub wins",
			JSON: `{"sub": "1", "id": 0, "name": "John Smith", "username": "john_smith", "email": "john@example.com"}`,
			Want: profile.User{ID: "1", Name: "John Smith", Email: "john@example.com"},
		},
		{
			Name:    "no id",
			JSON:    `{"username": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
