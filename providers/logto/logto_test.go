package logto

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://acme.logto.app/oidc"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "logto"},
		{Name: "name", Got: c.Name, Want: "Logto"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://acme.logto.app/oidc"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "offline_access openid email profile"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate with an issuer: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate without an issuer passed, want an error")
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "full claims",
			JSON: `{"sub": "u8h2k4m6n8p0", "name": "Chen Wei", "username": "chenwei",
		"picture": "https://acme.logto.app/avatars/chenwei.png", "email": "chen.wei@acme.cn",
		"email_verified": true, "phone_number": "+8613800138000", "phone_number_verified": false,
		"created_at": 1700000000000, "updated_at": 1700000500000,
		"organizations": ["org_abc"], "organization_roles": ["org_abc:admin"]}`,
			Want:     profile.User{ID: "u8h2k4m6n8p0", Name: "Chen Wei", Email: "chen.wei@acme.cn", Image: "https://acme.logto.app/avatars/chenwei.png"},
			Verified: true,
		},
		{
			Name: "no name: username; unverified address",
			JSON: `{"sub": "u1", "name": null, "username": "wei", "email": "w@acme.cn", "email_verified": false}`,
			Want: profile.User{ID: "u1", Name: "wei", Email: "w@acme.cn"},
		},
		{
			Name:    "no sub",
			JSON:    `{"username": "x"}`,
			WantErr: true,
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
