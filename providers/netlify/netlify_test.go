package netlify

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "netlify", Name: "Netlify", Type: providers.TypeOAuth,
		AuthURL:     "https://app.netlify.com/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://api.netlify.com/oauth/token",
		UserinfoURL: "https://api.netlify.com/api/v1/user",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#32e6e2"},
	}
	providertest.CheckConfig(t, o, want)
	if s, ok := o.Authorization.Scope(); !ok || s != "" {
		t.Errorf("scope = %q, %v; want an explicitly empty scope", s, ok)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"id": "5a1d0b4e8198c6133f1c6b83",
		"uid": null,
		"full_name": "Ada Lovelace",
		"avatar_url": "https://avatars.githubusercontent.com/u/1?v=4",
		"email": "ada@example.com",
		"affiliate_id": "",
		"site_count": 7,
		"created_at": "2017-11-28T07:29:18.392Z",
		"last_login": "2024-03-01T09:00:00.000Z",
		"login_providers": ["github", "email"]
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID: "5a1d0b4e8198c6133f1c6b83", Name: "Ada Lovelace", Email: "ada@example.com",
		Image: "https://avatars.githubusercontent.com/u/1?v=4",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
