package gitlab

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
	selfManaged := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://gitlab.example.com/"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "gitlab"},
		{"name", c.Name, "GitLab"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://gitlab.com/oauth/authorize"},
		{"token", c.Token.URL, "https://gitlab.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://gitlab.com/api/v4/user"},
		{"scope", scope, "read_user"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#FC6D26", Text: "#fff"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"self-managed authorization", selfManaged.Authorization.URL, "https://gitlab.example.com/oauth/authorize"},
		{"self-managed token", selfManaged.Token.URL, "https://gitlab.example.com/oauth/token"},
		{"self-managed userinfo", selfManaged.Userinfo.URL, "https://gitlab.example.com/api/v4/user"},
		{"self-managed issuer", selfManaged.Issuer, "https://gitlab.example.com/"},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := selfManaged.OAuth().Validate(); err != nil {
		t.Errorf("Validate (self-managed): %v", err)
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
			json: `{"id": 1, "username": "john_smith", "name": "John Smith", "state": "active",
		"locked": false, "avatar_url": "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg",
		"web_url": "https://gitlab.com/john_smith", "created_at": "2012-05-23T08:00:58Z",
		"bio": "", "location": null, "public_email": "john@example.com", "linkedin": "", "twitter": "",
		"website_url": "", "organization": "", "job_title": "Operations Specialist", "bot": false,
		"last_sign_in_at": "2012-06-01T11:41:01Z", "confirmed_at": "2012-05-23T09:05:22Z",
		"email": "john@example.com", "theme_id": 1, "color_scheme_id": 2, "projects_limit": 100,
		"identities": [], "can_create_group": true, "can_create_project": true,
		"two_factor_enabled": true, "external": false, "private_profile": false,
		"commit_email": "john-codes@example.com"}`,
			want: profile.User{ID: "1", Name: "John Smith", Email: "john@example.com", Image: "https://gitlab.com/uploads/-/system/user/avatar/1/cd8.jpeg"},
		},
		{
			name: "no name: the username",
			json: `{"id": 7, "username": "jsmith", "name": "", "email": "j@example.com", "avatar_url": null}`,
			want: profile.User{ID: "7", Name: "jsmith", Email: "j@example.com"},
		},
		{
			name: "OpenID userinfo: sub wins",
			json: `{"sub": "1", "id": 0, "name": "John Smith", "username": "john_smith", "email": "john@example.com"}`,
			want: profile.User{ID: "1", Name: "John Smith", Email: "john@example.com"},
		},
		{
			name:    "no id",
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
