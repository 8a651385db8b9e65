package bitbucket

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
		{"id", c.ID, "bitbucket"},
		{"name", c.Name, "Bitbucket"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://bitbucket.org/site/oauth2/authorize"},
		{"token", c.Token.URL, "https://bitbucket.org/site/oauth2/access_token"},
		{"userinfo", c.Userinfo.URL, "https://api.bitbucket.org/2.0/user"},
		{"scope", scope, "account"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#205081", Text: "#fff"}},
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
			json: `{"display_name": "Tamsin Ellery", "links": {
		"self": {"href": "https://api.bitbucket.org/2.0/users/%7B3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8%7D"},
		"avatar": {"href": "https://secure.gravatar.com/avatar/6e3a?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-3.png"},
		"html": {"href": "https://bitbucket.org/%7B3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8%7D/"}},
		"created_on": "2019-03-04T10:11:12.000000+00:00", "type": "user",
		"uuid": "{3f1e9c2a-7b4d-4e8f-a1b2-c3d4e5f6a7b8}", "has_2fa_enabled": null,
		"username": "tellery", "is_staff": false, "account_id": "557058:0c2d6f5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
		"nickname": "Tamsin", "account_status": "active", "location": null}`,
			want: profile.User{ID: "557058:0c2d6f5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f", Name: "Tamsin Ellery", Image: "https://secure.gravatar.com/avatar/6e3a?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-3.png"},
		},
		{
			name: "no display name: the username",
			json: `{"account_id": "557058:1", "username": "tellery", "display_name": "", "links": {}}`,
			want: profile.User{ID: "557058:1", Name: "tellery"},
		},
		{
			name:    "no account id",
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
