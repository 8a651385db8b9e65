package instagram

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
		{"id", c.ID, "instagram"},
		{"name", c.Name, "Instagram"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://api.instagram.com/oauth/authorize"},
		{"token", c.Token.URL, "https://api.instagram.com/oauth/access_token"},
		{"userinfo", c.Userinfo.URL, "https://graph.instagram.com/me"},
		{"scope", scope, "user_profile"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthClientSecretPost},
		{"style", c.Style, providers.Style{Bg: "#fff", Text: "#000"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"userinfo fields", c.Userinfo.Params["fields"], "id,username,account_type,name"},
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
			name: "personal account",
			json: `{"id": "17841405793187218", "username": "jayposiris", "account_type": "PERSONAL"}`,
			want: profile.User{ID: "17841405793187218", Name: "jayposiris"},
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
