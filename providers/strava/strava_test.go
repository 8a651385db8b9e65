package strava

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
		ID: "strava", Name: "Strava", Type: providers.TypeOAuth,
		AuthURL:     "https://www.strava.com/api/v3/oauth/authorize",
		AuthParams:  map[string]string{"scope": "read", "approval_prompt": "auto", "response_type": "code"},
		TokenURL:    "https://www.strava.com/api/v3/oauth/token",
		UserinfoURL: "https://www.strava.com/api/v3/athlete",
		Checks:      []providers.Check{providers.CheckPKCE},
		AuthMethod:  providers.AuthClientSecretPost,
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"id": 1234567890987654321,
		"username": "marianne_t",
		"resource_state": 3,
		"firstname": "Marianne",
		"lastname": "Teutenberg",
		"city": "San Francisco",
		"state": "CA",
		"country": "US",
		"sex": "F",
		"premium": true,
		"created_at": "2017-11-14T02:30:05Z",
		"updated_at": "2018-02-06T19:32:20Z",
		"badge_type_id": 4,
		"profile_medium": "https://xxxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/medium.jpg",
		"profile": "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg",
		"follower_count": 5,
		"friend_count": 5,
		"measurement_preference": "feet",
		"ftp": null,
		"weight": 0
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "1234567890987654321", Name: "Marianne Teutenberg", Image: "https://xxxxx.cloudfront.net/pictures/athletes/123456789/123456789/2/large.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
