package eventbrite

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
		{"id", c.ID, "eventbrite"},
		{"name", c.Name, "Eventbrite"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://www.eventbrite.com/oauth/authorize"},
		{"token", c.Token.URL, "https://www.eventbrite.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://www.eventbriteapi.com/v3/users/me/"},
		{"scope", scope, "user.profile"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthClientSecretPost},
		{"style", c.Style, providers.Style{Bg: "#f05537", Text: "#fff"}},
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
			name: "primary address and picture",
			json: `{"emails": [{"email": "old@example.com", "verified": true, "primary": false},
		{"email": "rosa@example.com", "verified": true, "primary": true}],
		"id": "1234567890", "name": "Rosa Parra", "first_name": "Rosa", "last_name": "Parra",
		"is_public": false, "image_id": "98765432"}`,
			want: profile.User{ID: "1234567890", Name: "Rosa Parra", Email: "rosa@example.com", Image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F98765432%2F1%2Foriginal.jpg"},
		},
		{
			name: "no primary address, no picture",
			json: `{"emails": [{"email": "a@example.com", "verified": false, "primary": false}],
		"id": "55", "name": "A", "image_id": null}`,
			want: profile.User{ID: "55", Name: "A"},
		},
		{
			name:    "no id",
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
