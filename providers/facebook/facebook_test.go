package facebook

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
		{"id", c.ID, "facebook"},
		{"name", c.Name, "Facebook"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://www.facebook.com/v19.0/dialog/oauth"},
		{"token", c.Token.URL, "https://graph.facebook.com/oauth/access_token"},
		{"userinfo", c.Userinfo.URL, "https://graph.facebook.com/me"},
		{"scope", scope, "email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#006aff", Text: "#fff"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"userinfo fields", c.Userinfo.Params["fields"], "id,name,email,picture"},
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
			name: "user with picture",
			json: `{"id": "10224141985638512", "name": "Amara Okafor", "email": "amara@example.ng",
		"picture": {"data": {"height": 50, "is_silhouette": false,
			"url": "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224141985638512&height=50&width=50&ext=1700000000&hash=AbC",
			"width": 50}}}`,
			want: profile.User{ID: "10224141985638512", Name: "Amara Okafor", Email: "amara@example.ng", Image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224141985638512&height=50&width=50&ext=1700000000&hash=AbC"},
		},
		{
			name: "no e-mail, no picture",
			json: `{"id": "42", "name": "No Mail"}`,
			want: profile.User{ID: "42", Name: "No Mail"},
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
