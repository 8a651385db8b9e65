package line

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "1654321987", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "line"},
		{"name", c.Name, "LINE"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, "https://access.line.me"},
		{"authorization", c.Authorization.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"id token alg", c.Client.IDTokenSignedResponseAlg, "HS256"},
		{"style", c.Style, providers.Style{Bg: "#00C300", Text: "#fff"}},
		{"profile callback", c.Profile == nil, true},
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
			name: "id token claims",
			json: `{"iss": "https://access.line.me", "sub": "U1234567890abcdef1234567890abcdef",
		"aud": "1654321987", "exp": 1504169092, "iat": 1504263657, "nonce": "0987654asdf",
		"amr": ["pwd"], "name": "Taro Line",
		"picture": "https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEkwnPRkufGxZFjMJRUB9bE0reHtVdj4L", "email": "taro.line@example.com"}`,
			want: profile.User{ID: "U1234567890abcdef1234567890abcdef", Name: "Taro Line", Email: "taro.line@example.com", Image: "https://profile.line-scdn.net/0h8pWWElvzZ19qLk3ywQYYCFZraTIdAGEXEkwnPRkufGxZFjMJRUB9bE0reHtVdj4L"},
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
