package kakao

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "kakao"},
		{Name: "name", Got: c.Name, Want: "Kakao"},
		{Name: "type", Got: c.Type, Want: providers.TypeOAuth},
		{Name: "authorization", Got: c.Authorization.URL, Want: "https://kauth.kakao.com/oauth/authorize"},
		{Name: "token", Got: c.Token.URL, Want: "https://kauth.kakao.com/oauth/token"},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: "https://kapi.kakao.com/v2/user/me"},
		{Name: "scope", Got: scope, Want: ""},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthClientSecretPost},
		{Name: "style", Got: c.Style, Want: providers.Style{}},
		{Name: "issuer", Got: c.Issuer, Want: ""},
		{Name: "profile callback set", Got: c.Profile != nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if q, ok := c.Authorization.Params["scope"]; !ok || q != "" {
		t.Errorf("scope param = %q (present %v), want present and empty", q, ok)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []providertest.MappingCase{
		{
			Name: "account",
			JSON: `{"id": 2468013579, "connected_at": "2022-04-11T01:45:28Z",
		"properties": {"nickname": "홍길동"},
		"kakao_account": {"profile_nickname_needs_agreement": false, "profile_image_needs_agreement": false,
			"profile": {"nickname": "홍길동",
				"thumbnail_image_url": "http://k.kakaocdn.net/dn/abc/img_110x110.jpg",
				"profile_image_url": "http://k.kakaocdn.net/dn/abc/img_640x640.jpg",
				"is_default_image": false},
			"name_needs_agreement": false, "name": "홍길동", "email_needs_agreement": false,
			"is_email_valid": true, "is_email_verified": true, "email": "gildong@kakao.com",
			"age_range_needs_agreement": false, "age_range": "20~29", "gender": "male"}}`,
			Want: profile.User{ID: "2468013579", Name: "홍길동", Email: "gildong@kakao.com", Image: "http://k.kakaocdn.net/dn/abc/img_640x640.jpg"},
		},
		{
			Name: "nickname only",
			JSON: `{"id": 1, "kakao_account": {"profile": {"nickname": "dooly"}}}`,
			Want: profile.User{ID: "1", Name: "dooly"},
		},
		{
			Name:    "no id",
			JSON:    `{"kakao_account": {}}`,
			WantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	providertest.CheckMapping(t, o, tests)
}
