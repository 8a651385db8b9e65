package atlassian

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
		{"id", c.ID, "atlassian"},
		{"name", c.Name, "Atlassian"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://auth.atlassian.com/authorize"},
		{"token", c.Token.URL, "https://auth.atlassian.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://api.atlassian.com/me"},
		{"scope", scope, "read:me"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#fff", Text: "#0052cc"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"audience", c.Authorization.Params["audience"], "api.atlassian.com"},
		{"prompt", c.Authorization.Params["prompt"], "consent"},
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
			name: "account",
			json: `{"account_type": "atlassian", "account_id": "5b10ac8d82e05b22cc7d4ef5",
		"email": "mia@example.com", "email_verified": true, "name": "Mia Krystof",
		"picture": "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10ac8d82e05b22cc7d4ef5/1a2b3c.png",
		"account_status": "active", "nickname": "mia", "zoneinfo": "Australia/Sydney", "locale": "en-US",
		"extended_profile": {"job_title": "Designer", "organization": "Acme", "department": "Design", "location": "Sydney"}}`,
			want: profile.User{ID: "5b10ac8d82e05b22cc7d4ef5", Name: "Mia Krystof", Email: "mia@example.com", Image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10ac8d82e05b22cc7d4ef5/1a2b3c.png"},
		},
		{
			name:    "no account id",
			json:    `{"name": "x"}`,
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
