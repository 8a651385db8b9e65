package battlenet

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: IssuerEU})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "battlenet"},
		{Name: "name", Got: c.Name, Want: "Battle.net"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: "https://eu.battle.net/oauth"},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#148eff"}},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
		{Name: "global issuer", Got: IssuerGlobal, Want: "https://oauth.battle.net"},
		{Name: "china issuer", Got: IssuerChina, Want: "https://oauth.battlenet.com.cn"},
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
			Name: "id token",
			JSON: `{"at_hash": "dGhpc2lzYWhhc2g", "sub": "104593848", "aud": "cid", "azp": "cid",
		"iss": "https://eu.battle.net/oauth", "exp": 1700086400, "iat": 1700000000,
		"battle_tag": "Jaina#1234", "jti": "5f3c0a1e-7b2d-4c8e-9f10-a1b2c3d4e5f6"}`,
			Want: profile.User{ID: "104593848", Name: "Jaina#1234"},
		},
		{
			Name:    "no sub",
			JSON:    `{"battle_tag": "Ghost#0001"}`,
			WantErr: true,
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
