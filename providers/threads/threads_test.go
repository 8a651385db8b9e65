package threads

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
		ID: "threads", Name: "Threads", Type: providers.TypeOAuth,
		AuthURL:     "https://threads.net/oauth/authorize",
		AuthParams:  map[string]string{"scope": "threads_basic"},
		TokenURL:    "https://graph.threads.net/oauth/access_token",
		UserinfoURL: "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url",
		Checks:      []providers.Check{providers.CheckState},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{BrandColor: "#000"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"id": "1234567890123456",
		"username": "threadsapitestuser",
		"threads_profile_picture_url": "https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "1234567890123456", Name: "threadsapitestuser", Image: "https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
