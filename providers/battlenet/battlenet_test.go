package battlenet

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: IssuerEU})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "battlenet"},
		{"name", c.Name, "Battle.net"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://eu.battle.net/oauth"},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#148eff", Text: "#fff"}},
		{"profile callback set", c.Profile != nil, true},
		{"global issuer", IssuerGlobal, "https://oauth.battle.net"},
		{"china issuer", IssuerChina, "https://oauth.battlenet.com.cn"},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate with an issuer: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate without an issuer passed, want an error")
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
			name: "id token",
			json: `{"at_hash": "dGhpc2lzYWhhc2g", "sub": "104593848", "aud": "cid", "azp": "cid",
		"iss": "https://eu.battle.net/oauth", "exp": 1700086400, "iat": 1700000000,
		"battle_tag": "Jaina#1234", "jti": "5f3c0a1e-7b2d-4c8e-9f10-a1b2c3d4e5f6"}`,
			want: profile.User{ID: "104593848", Name: "Jaina#1234"},
		},
		{
			name:    "no sub",
			json:    `{"battle_tag": "Ghost#0001"}`,
			wantErr: true,
		},
	}
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
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
