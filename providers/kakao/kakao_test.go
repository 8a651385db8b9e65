package kakao

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
		{"id", c.ID, "kakao"},
		{"name", c.Name, "Kakao"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://kauth.kakao.com/oauth/authorize"},
		{"token", c.Token.URL, "https://kauth.kakao.com/oauth/token"},
		{"userinfo", c.Userinfo.URL, "https://kapi.kakao.com/v2/user/me"},
		{"scope", scope, ""},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthClientSecretPost},
		{"style", c.Style, providers.Style{}},
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
	if q, ok := c.Authorization.Params["scope"]; !ok || q != "" {
		t.Errorf("scope param = %q (present %v), want present and empty", q, ok)
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
			json: `{"id": 2468013579, "connected_at": "2022-04-11T01:45:28Z",
		"properties": {"nickname": "홍길동"},
		"kakao_account": {"profile_nickname_needs_agreement": false, "profile_image_needs_agreement": false,
			"profile": {"nickname": "홍길동",
				"thumbnail_image_url": "http://k.kakaocdn.net/dn/abc/img_110x110.jpg",
				"profile_image_url": "http://k.kakaocdn.net/dn/abc/img_640x640.jpg",
				"is_default_image": false},
			"name_needs_agreement": false, "name": "홍길동", "email_needs_agreement": false,
			"is_email_valid": true, "is_email_verified": true, "email": "gildong@kakao.com",
			"age_range_needs_agreement": false, "age_range": "20~29", "gender": "male"}}`,
			want: profile.User{ID: "2468013579", Name: "홍길동", Email: "gildong@kakao.com", Image: "http://k.kakaocdn.net/dn/abc/img_640x640.jpg"},
		},
		{
			name: "nickname only",
			json: `{"id": 1, "kakao_account": {"profile": {"nickname": "dooly"}}}`,
			want: profile.User{ID: "1", Name: "dooly"},
		},
		{
			name:    "no id",
			json:    `{"kakao_account": {}}`,
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
