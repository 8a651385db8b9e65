package box

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
		{"id", c.ID, "box"},
		{"name", c.Name, "Box"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://account.box.com/api/oauth2/authorize"},
		{"token", c.Token.URL, "https://api.box.com/oauth2/token"},
		{"userinfo", c.Userinfo.URL, "https://api.box.com/2.0/users/me"},
		{"scope set", hasScope, false},
		{"scope", scope, ""},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#0075C9", Text: "#fff"}},
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
			json: `{"type": "user", "id": "11446498", "name": "Aaron Levie", "login": "ceo@example.com",
		"created_at": "2012-12-12T10:53:43-08:00", "modified_at": "2012-12-12T10:53:43-08:00",
		"language": "en", "timezone": "Africa/Bujumbura", "space_amount": 11345156112,
		"space_used": 1237009912, "max_upload_size": 2147483648, "status": "active",
		"job_title": "CEO", "phone": "6509241374", "address": "900 Jefferson Ave, Redwood City, CA 94063",
		"avatar_url": "https://www.box.com/api/avatar/large/181216415"}`,
			want: profile.User{ID: "11446498", Name: "Aaron Levie", Email: "ceo@example.com", Image: "https://www.box.com/api/avatar/large/181216415"},
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
