package spotify

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
		ID: "spotify", Name: "Spotify", Type: providers.TypeOAuth,
		AuthURL:     "https://accounts.spotify.com/authorize",
		AuthParams:  map[string]string{"scope": "user-read-email"},
		TokenURL:    "https://accounts.spotify.com/api/token",
		UserinfoURL: "https://api.spotify.com/v1/me",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#1db954"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"display_name": "JM Wizzler",
		"email": "email@example.com",
		"external_urls": {"spotify": "https://open.spotify.com/user/wizzler"},
		"followers": {"href": null, "total": 3829},
		"href": "https://api.spotify.com/v1/users/wizzler",
		"id": "wizzler",
		"images": [
			{"height": 300, "url": "https://i.scdn.co/image/ab6775700000ee85a1b2c3", "width": 300},
			{"height": 64, "url": "https://i.scdn.co/image/ab67757000003b82a1b2c3", "width": 64}
		],
		"type": "user",
		"uri": "spotify:user:wizzler"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "wizzler", Name: "JM Wizzler", Email: "email@example.com", Image: "https://i.scdn.co/image/ab6775700000ee85a1b2c3"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
