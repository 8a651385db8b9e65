package discord

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
		{Name: "id", Got: c.ID, Want: "discord"},
		{Name: "name", Got: c.Name, Want: "Discord"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://discord.com/api/oauth2/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://discord.com/api/oauth2/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://discord.com/api/users/@me"},
		{Name: "scope", Got: scope, Want: "identify email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#5865F2"}},
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
			Name: "static avatar, display name",
			JSON: `{"id": "80351110224678912", "username": "nelly",
		"discriminator": "0", "global_name": "Nelly", "avatar": "8342729096ea3675442027381ff50dfe",
		"verified": true, "email": "nelly@discord.com", "flags": 64, "banner": "06c16474723fe537c283b8efa61a30c8",
		"accent_color": 16711680, "premium_type": 1, "public_flags": 64, "mfa_enabled": true, "locale": "en-US"}`,
			Want: profile.User{ID: "80351110224678912", Name: "Nelly", Email: "nelly@discord.com", Image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png"},
		},
		{
			Name: "animated avatar, no display name",
			JSON: `{"id": "175928847299117063", "username": "wumpus",
		"discriminator": "0", "global_name": null, "avatar": "a_1269e74af4df7417b13759eae50c83dc", "email": null}`,
			Want: profile.User{ID: "175928847299117063", Name: "wumpus", Image: "https://cdn.discordapp.com/avatars/175928847299117063/a_1269e74af4df7417b13759eae50c83dc.gif"},
		},
		{
			Name: "default avatar, new username",
			JSON: `{"id": "80351110224678912", "username": "nelly",
		"discriminator": "0", "global_name": null, "avatar": null}`,
			Want: profile.User{ID: "80351110224678912", Name: "nelly", Image: "https://cdn.discordapp.com/embed/avatars/5.png"},
		},
		{
			Name: "default avatar, legacy discriminator",
			JSON: `{"id": "175928847299117063", "username": "Wumpus",
		"discriminator": "1337", "avatar": null}`,
			Want: profile.User{ID: "175928847299117063", Name: "Wumpus", Image: "https://cdn.discordapp.com/embed/avatars/2.png"},
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
