package discord

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "discord"},
		{"name", c.Name, "Discord"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://discord.com/api/oauth2/authorize"},
		{"token", c.Token.URL, "https://discord.com/api/oauth2/token"},
		{"userinfo", c.Userinfo.URL, "https://discord.com/api/users/@me"},
		{"scope", scope, "identify email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#5865F2", Text: "#fff"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		tokens   account.TokenSet
		want     profile.User
		verified bool // EmailVerified is set
		wantErr  bool
	}{
		{
			name: "static avatar, display name",
			json: `{"id": "80351110224678912", "username": "nelly",
		"discriminator": "0", "global_name": "Nelly", "avatar": "8342729096ea3675442027381ff50dfe",
		"verified": true, "email": "nelly@discord.com", "flags": 64, "banner": "06c16474723fe537c283b8efa61a30c8",
		"accent_color": 16711680, "premium_type": 1, "public_flags": 64, "mfa_enabled": true, "locale": "en-US"}`,
			want: profile.User{ID: "80351110224678912", Name: "Nelly", Email: "nelly@discord.com", Image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png"},
		},
		{
			name: "animated avatar, no display name",
			json: `{"id": "175928847299117063", "username": "wumpus",
		"discriminator": "0", "global_name": null, "avatar": "a_1269e74af4df7417b13759eae50c83dc", "email": null}`,
			want: profile.User{ID: "175928847299117063", Name: "wumpus", Image: "https://cdn.discordapp.com/avatars/175928847299117063/a_1269e74af4df7417b13759eae50c83dc.gif"},
		},
		{
			name: "default avatar, new username",
			json: `{"id": "80351110224678912", "username": "nelly",
		"discriminator": "0", "global_name": null, "avatar": null}`,
			want: profile.User{ID: "80351110224678912", Name: "nelly", Image: "https://cdn.discordapp.com/embed/avatars/5.png"},
		},
		{
			name: "default avatar, legacy discriminator",
			json: `{"id": "175928847299117063", "username": "Wumpus",
		"discriminator": "1337", "avatar": null}`,
			want: profile.User{ID: "175928847299117063", Name: "Wumpus", Image: "https://cdn.discordapp.com/embed/avatars/2.png"},
		},
		{
			name:    "no id",
			json:    `{"username": "x"}`,
			wantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := o.DecodeProfile([]byte(tt.json))
			if err != nil {
				t.Fatalf("DecodeProfile: %v", err)
			}
			u, err := o.MapProfile(context.Background(), p, tt.tokens)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("MapProfile = %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("MapProfile: %v", err)
			}
			if (u.EmailVerified != nil) != tt.verified {
				t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, tt.verified)
			}
			u.EmailVerified = nil
			if u != tt.want {
				t.Errorf("user = %+v\nwant   %+v", u, tt.want)
			}
		})
	}
}
