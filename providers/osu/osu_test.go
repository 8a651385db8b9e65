package osu

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
		ID: "osu", Name: "osu!", Type: providers.TypeOAuth,
		AuthURL:     "https://osu.ppy.sh/oauth/authorize",
		AuthParams:  map[string]string{"scope": "identify"},
		TokenURL:    "https://osu.ppy.sh/oauth/token",
		UserinfoURL: "https://osu.ppy.sh/api/v2/me",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"avatar_url": "https://a.ppy.sh/2?1519081077.png",
		"country_code": "AU",
		"default_group": "default",
		"id": 2,
		"is_active": true,
		"is_bot": false,
		"is_deleted": false,
		"is_online": false,
		"is_supporter": true,
		"last_visit": "2024-01-01T00:00:00+00:00",
		"pm_friends_only": false,
		"profile_colour": "#3366FF",
		"username": "peppy",
		"cover_url": "https://assets.ppy.sh/user-profile-covers/2/baba245ef60834b769694178f8f6d4f6166c5188c740de084656ad2b80f1eea7.jpeg",
		"join_date": "2007-08-28T03:09:12+00:00",
		"playmode": "osu",
		"country": {"code": "AU", "name": "Australia"}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "2", Name: "peppy", Image: "https://a.ppy.sh/2?1519081077.png"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
