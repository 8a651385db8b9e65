package patreon

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
		ID: "patreon", Name: "Patreon", Type: providers.TypeOAuth,
		AuthURL:     "https://www.patreon.com/oauth2/authorize",
		AuthParams:  map[string]string{"scope": "identity identity[email]"},
		TokenURL:    "https://www.patreon.com/api/oauth2/token",
		UserinfoURL: "https://www.patreon.com/api/oauth2/api/current_user",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#e85b46"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"data": {
			"attributes": {
				"about": null,
				"created": "2017-10-20T21:36:23+00:00",
				"email": "corgi@example.com",
				"first_name": "Corgi",
				"full_name": "Corgi The Dev",
				"image_url": "https://c8.patreon.com/2/200/207",
				"is_email_verified": true,
				"last_name": "The Dev",
				"thumb_url": "https://c8.patreon.com/2/100/207",
				"url": "https://www.patreon.com/corgithedev",
				"vanity": "corgithedev"
			},
			"id": "207",
			"relationships": {"pledges": {"data": []}},
			"type": "user"
		},
		"links": {"self": "https://www.patreon.com/api/user/207"}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "207", Name: "Corgi The Dev", Email: "corgi@example.com", Image: "https://c8.patreon.com/2/200/207"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
