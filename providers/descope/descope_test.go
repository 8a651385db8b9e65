package descope

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "P2abcDEF123", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "descope"},
		{"name", c.Name, "Descope"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer from the client id", c.Issuer, "https://api.descope.com/P2abcDEF123"},
		{"authorization", c.Authorization.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#1C1C23", Text: "#ffffff"}},
		{"profile callback", c.Profile == nil, true},
		{"explicit issuer kept", New(providers.OIDCUserConfig[Profile]{ClientID: "P2abc", Issuer: "https://auth.acme.test/P2abc"}).Issuer, "https://auth.acme.test/P2abc"},
		{"no client id, no issuer", New(providers.OIDCUserConfig[Profile]{}).Issuer, ""},
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
			json: `{"sub": "U2fTq8kLmN0pQrStUvWxYz", "name": "Dana Cohen", "email": "dana@acme.io",
		"email_verified": true, "phone_number": "+972501234567", "phone_number_verified": false,
		"picture": "https://static.descope.com/dana.png", "iss": "https://api.descope.com/P2abcDEF123",
		"aud": ["P2abcDEF123"], "tenants": {}}`,
			want:     profile.User{ID: "U2fTq8kLmN0pQrStUvWxYz", Name: "Dana Cohen", Email: "dana@acme.io", Image: "https://static.descope.com/dana.png"},
			verified: true,
		},
		{
			name: "unverified address",
			json: `{"sub": "U9", "email": "x@acme.io", "email_verified": false}`,
			want: profile.User{ID: "U9", Email: "x@acme.io"},
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
