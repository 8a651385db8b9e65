package mastodon

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	for _, issuer := range []string{"https://mastodon.social", "https://mastodon.social/"} {
		o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: issuer}).OAuth()
		want := providertest.Config{
			ID: "mastodon", Name: "Mastodon", Type: providers.TypeOAuth,
			AuthURL:     "https://mastodon.social/oauth/authorize",
			AuthParams:  map[string]string{"scope": "read"},
			TokenURL:    "https://mastodon.social/oauth/token",
			UserinfoURL: "https://mastodon.social/api/v1/accounts/verify_credentials",
			Issuer:      issuer,
			Checks:      []providers.Check{providers.CheckPKCE},
		}
		t.Run(issuer, func(t *testing.T) { providertest.CheckConfig(t, o, want) })
		if err := o.Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}
	}
}

func TestNoIssuer(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	if o.Authorization.URL != "" || o.Token.URL != "" || o.UserinfoURL != "" {
		t.Errorf("endpoints without an issuer: %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
	if err := o.Validate(); err == nil {
		t.Error("Validate accepts a Mastodon provider without an issuer")
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://mastodon.social"}).OAuth()
	const raw = `{
		"id": "14715",
		"username": "trwnh",
		"acct": "trwnh",
		"display_name": "infinite love ⴳ",
		"locked": false,
		"bot": false,
		"created_at": "2016-11-24T10:02:12.085Z",
		"note": "<p>i have approximate knowledge of many things</p>",
		"url": "https://mastodon.social/@trwnh",
		"avatar": "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
		"avatar_static": "https://files.mastodon.social/accounts/avatars/000/014/715/static/34aa222f4ae2e0a9.png",
		"header": "https://files.mastodon.social/accounts/headers/000/014/715/original/5c6fc24edb3bb873.jpg",
		"followers_count": 821,
		"following_count": 178,
		"statuses_count": 33120,
		"source": {"privacy": "public", "sensitive": false, "language": "", "note": "i have approximate knowledge of many things", "fields": []}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID:    "14715",
		Name:  "trwnh",
		Image: "https://files.mastodon.social/accounts/avatars/000/014/715/static/34aa222f4ae2e0a9.png",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
