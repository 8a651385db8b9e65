package coinbase

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
		{"id", c.ID, "coinbase"},
		{"name", c.Name, "Coinbase"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://login.coinbase.com/oauth2/auth"},
		{"token", c.Token.URL, "https://login.coinbase.com/oauth2/token"},
		{"userinfo", c.Userinfo.URL, "https://api.coinbase.com/v2/user"},
		{"scope", scope, "wallet:user:email wallet:user:read"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{BrandColor: "#0052ff"}},
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
			name: "user",
			json: `{"data": {"id": "9da7a204-544e-5fd1-9a12-61176c5d4cd8", "name": "User One",
		"username": "user1", "profile_location": null, "profile_bio": null,
		"profile_url": "https://coinbase.com/user1",
		"avatar_url": "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh&s=128",
		"resource": "user", "resource_path": "/v2/user", "email": "user1@example.com",
		"time_zone": "Pacific Time (US & Canada)", "native_currency": "USD", "bitcoin_unit": "bits",
		"country": {"code": "US", "name": "United States of America", "is_in_europe": false},
		"created_at": "2015-01-31T20:49:02Z"}}`,
			want: profile.User{ID: "9da7a204-544e-5fd1-9a12-61176c5d4cd8", Name: "User One", Email: "user1@example.com", Image: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh&s=128"},
		},
		{
			name:    "no data.id",
			json:    `{"data": {"name": "x"}}`,
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
