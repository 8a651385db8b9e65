package medium

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
		ID: "medium", Name: "Medium", Type: providers.TypeOAuth,
		AuthURL:     "https://medium.com/m/oauth/authorize",
		AuthParams:  map[string]string{"scope": "basicProfile"},
		TokenURL:    "https://api.medium.com/v1/tokens",
		UserinfoURL: "https://api.medium.com/v1/me",
		Checks:      []providers.Check{providers.CheckState},
		AuthMethod:  providers.AuthClientSecretPost,
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"data": {
			"id": "5303d74c64f66366f00cb9b2a94f3251bf5",
			"username": "majelbstoat",
			"name": "Jamie Talbot",
			"url": "https://medium.com/@majelbstoat",
			"imageUrl": "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png"
		}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID:    "5303d74c64f66366f00cb9b2a94f3251bf5",
		Name:  "Jamie Talbot",
		Image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
