package azureadb2c

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "azure-ad-b2c"},
		{"name", c.Name, "Azure Active Directory B2C"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#0072c6", Text: "#fff"}},
		{"profile callback set", c.Profile != nil, true},
		{"wellKnown helper", WellKnown("contoso", "B2C_1_signupsignin"), "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration"},
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
			name: "sign-up/sign-in flow",
			json: `{"exp": 1700003600, "nbf": 1700000000, "ver": "1.0",
		"iss": "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
		"sub": "0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5", "aud": "cid", "iat": 1700000000,
		"auth_time": 1700000000, "oid": "0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5",
		"name": "Ines Duarte", "given_name": "Ines", "family_name": "Duarte",
		"emails": ["ines@contoso.pt", "ines.duarte@example.pt"], "tfp": "B2C_1_signupsignin"}`,
			want: profile.User{ID: "0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5", Name: "Ines Duarte", Email: "ines@contoso.pt"},
		},
		{
			name: "no name: preferred_username",
			json: `{"sub": "s-2", "preferred_username": "ines.d", "emails": []}`,
			want: profile.User{ID: "s-2", Name: "ines.d"},
		},
		{
			name:    "no sub",
			json:    `{"name": "Nobody", "emails": ["n@contoso.pt"]}`,
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
