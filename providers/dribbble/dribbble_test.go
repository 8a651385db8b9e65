package dribbble

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
		{"id", c.ID, "dribbble"},
		{"name", c.Name, "Dribbble"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://dribbble.com/oauth/authorize"},
		{"token", c.Token.URL, "https://dribbble.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://api.dribbble.com/v2/user"},
		{"scope", scope, "public"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#000", Text: "#fff"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"upload scope", New(providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": ScopeUpload}}}).Authorization.Params["scope"], "public upload"},
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
			name: "player",
			json: `{"id": 1, "name": "Dan Cederholm", "login": "simplebits",
		"html_url": "https://dribbble.com/simplebits",
		"avatar_url": "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243",
		"bio": "Co-founder &amp; designer of <a href=\"https://dribbble.com/dribbble\">@Dribbble</a>.",
		"location": "Salem, MA", "links": {"web": "http://simplebits.com", "twitter": "https://twitter.com/simplebits"},
		"can_upload_shot": true, "pro": true, "followers_count": 29262,
		"created_at": "2009-07-08T02:51:22Z", "type": "Player", "teams": []}`,
			want: profile.User{ID: "1", Name: "Dan Cederholm", Image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243"},
		},
		{
			name: "with e-mail",
			json: `{"id": 42, "name": "Ana", "email": "ana@example.com", "avatar_url": null}`,
			want: profile.User{ID: "42", Name: "Ana", Email: "ana@example.com"},
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
