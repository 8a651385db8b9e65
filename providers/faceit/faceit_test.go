package faceit

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
		{"id", c.ID, "faceit"},
		{"name", c.Name, "FACEIT"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://accounts.faceit.com/accounts"},
		{"token", c.Token.URL, "https://api.faceit.com/auth/v1/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://api.faceit.com/auth/v1/resources/userinfo"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"redirect_popup", c.Authorization.Params["redirect_popup"], "true"},
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
			name: "user",
			json: `{"guid": "0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e", "name": "Lena Vogel",
		"nickname": "lenav", "given_name": "Lena", "family_name": "Vogel",
		"email": "lena@example.de", "picture": "https://assets.faceit-cdn.net/avatars/0b1c2d3e.jpg",
		"locale": "de"}`,
			want: profile.User{ID: "0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e", Name: "Lena Vogel", Email: "lena@example.de", Image: "https://assets.faceit-cdn.net/avatars/0b1c2d3e.jpg"},
		},
		{
			name:    "no guid",
			json:    `{"nickname": "x"}`,
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
