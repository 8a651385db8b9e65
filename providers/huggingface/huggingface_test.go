package huggingface

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "huggingface"},
		{"name", c.Name, "Hugging Face"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://huggingface.co"},
		{"authorization", c.Authorization.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState, providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#FFD21E", Text: "#000"}},
		{"profile callback", c.Profile == nil, true},
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
			name: "full profile",
			json: `{"sub": "64f0b7a2c3d4e5f6a7b8c9d0", "name": "Julien Chaumond",
		"preferred_username": "julien-c", "profile": "https://huggingface.co/julien-c",
		"picture": "https://cdn-avatars.huggingface.co/v1/production/uploads/julien-c.jpeg",
		"website": "https://example.fr", "email": "julien@example.fr", "email_verified": true,
		"isPro": true, "orgs": [{"sub": "5e67bd5b1009063689407478", "name": "Hugging Face",
		"picture": "https://cdn-avatars.huggingface.co/hf.png", "preferred_username": "huggingface",
		"isEnterprise": true, "roleInOrg": "admin"}]}`,
			want:     profile.User{ID: "64f0b7a2c3d4e5f6a7b8c9d0", Name: "Julien Chaumond", Email: "julien@example.fr", Image: "https://cdn-avatars.huggingface.co/v1/production/uploads/julien-c.jpeg"},
			verified: true,
		},
		{
			name: "no name: the username",
			json: `{"sub": "65a1", "preferred_username": "tiny-llama-fan", "isPro": false}`,
			want: profile.User{ID: "65a1", Name: "tiny-llama-fan"},
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
