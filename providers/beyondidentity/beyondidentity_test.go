package beyondidentity

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "beyondidentity"},
		{"name", c.Name, "Beyond Identity"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f"},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#5077c5", Text: "#fff"}},
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
			name: "user",
			json: `{"sub": "c2a1b0e9-8f7d-4c6b-a5e4-d3c2b1a09f8e", "name": "Priya Raman",
		"preferred_username": "priya", "email": "priya@acme.in",
		"iss": "https://auth-us.beyondidentity.com/v1/tenants/00012a/realms/8d2e/applications/4b7f", "aud": "cid"}`,
			want: profile.User{ID: "c2a1b0e9-8f7d-4c6b-a5e4-d3c2b1a09f8e", Name: "Priya Raman", Email: "priya@acme.in"},
		},
		{
			name:    "no sub",
			json:    `{"name": "x"}`,
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
