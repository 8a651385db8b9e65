package clickup

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
		{"id", c.ID, "click-up"},
		{"name", c.Name, "ClickUp"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://app.clickup.com/api"},
		{"token", c.Token.URL, "https://api.clickup.com/api/v2/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://api.clickup.com/api/v2/user"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#24292f", Text: "#fff"}},
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
			name: "user: no e-mail or image mapped",
			json: `{"user": {"id": 123, "username": "John Doe", "color": "#000000",
		"profilePicture": "https://attachments.clickup.com/profilePictures/123_abc.jpg"}}`,
			want: profile.User{ID: "123", Name: "John Doe"},
		},
		{
			name:    "no user id",
			json:    `{"user": {"username": "x"}}`,
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
