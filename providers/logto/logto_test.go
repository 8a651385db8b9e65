package logto

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://acme.logto.app/oidc"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "logto"},
		{"name", c.Name, "Logto"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://acme.logto.app/oidc"},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"scope", scope, "offline_access openid email profile"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{}},
		{"profile callback set", c.Profile != nil, true},
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
			name: "full claims",
			json: `{"sub": "u8h2k4m6n8p0", "name": "Chen Wei", "username": "chenwei",
		"picture": "https://acme.logto.app/avatars/chenwei.png", "email": "chen.wei@acme.cn",
		"email_verified": true, "phone_number": "+8613800138000", "phone_number_verified": false,
		"created_at": 1700000000000, "updated_at": 1700000500000,
		"organizations": ["org_abc"], "organization_roles": ["org_abc:admin"]}`,
			want:     profile.User{ID: "u8h2k4m6n8p0", Name: "Chen Wei", Email: "chen.wei@acme.cn", Image: "https://acme.logto.app/avatars/chenwei.png"},
			verified: true,
		},
		{
			name: "no name: username; unverified address",
			json: `{"sub": "u1", "name": null, "username": "wei", "email": "w@acme.cn", "email_verified": false}`,
			want: profile.User{ID: "u1", Name: "wei", Email: "w@acme.cn"},
		},
		{
			name:    "no sub",
			json:    `{"username": "x"}`,
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
