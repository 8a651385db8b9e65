package freshbooks

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
		{"id", c.ID, "freshbooks"},
		{"name", c.Name, "Freshbooks"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://auth.freshbooks.com/service/auth/oauth/authorize"},
		{"token", c.Token.URL, "https://api.freshbooks.com/auth/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://api.freshbooks.com/auth/api/v1/users/me"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#0075dd", Text: "#fff"}},
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
			name: "identity",
			json: `{"response": {"id": 2192788, "identity_id": 2192788,
		"identity_uuid": "0f4e2b8a-6c1d-4e3f-9a7b-5d2c1e0f9a8b", "first_name": "Sofia",
		"last_name": "Lindqvist", "email": "sofia@example.se", "language": "en",
		"confirmed_at": "2021-05-01T12:00:00Z", "created_at": "2021-04-30T09:15:00Z",
		"setup_complete": true, "phone_numbers": [], "addresses": [], "business_memberships": []}}`,
			want: profile.User{ID: "2192788", Name: "Sofia Lindqvist", Email: "sofia@example.se"},
		},
		{
			name: "first name only",
			json: `{"response": {"id": 7, "first_name": "Sofia", "last_name": null}}`,
			want: profile.User{ID: "7", Name: "Sofia"},
		},
		{
			name:    "no id",
			json:    `{"response": {"first_name": "x"}}`,
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
