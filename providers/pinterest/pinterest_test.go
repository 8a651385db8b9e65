package pinterest

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
		ID: "pinterest", Name: "Pinterest", Type: providers.TypeOAuth,
		AuthURL:     "https://www.pinterest.com/oauth",
		AuthParams:  map[string]string{"scope": "user_accounts:read"},
		TokenURL:    "https://api.pinterest.com/v5/oauth/token",
		UserinfoURL: "https://api.pinterest.com/v5/user_account",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#bd081c"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"account_type": "PINNER",
		"id": "549755885175",
		"profile_image": "https://i.pinimg.com/280x280_RS/42/03/a5/4203a57a78f6f1b1e17d6e4d4f1b6a5e.jpg",
		"website_url": "https://www.example.com",
		"username": "pinner_jane",
		"about": "Recipes and gardens",
		"business_name": null,
		"board_count": 12,
		"pin_count": 340,
		"follower_count": 55,
		"following_count": 80,
		"monthly_views": 1200
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "549755885175", Name: "pinner_jane", Image: "https://i.pinimg.com/280x280_RS/42/03/a5/4203a57a78f6f1b1e17d6e4d4f1b6a5e.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestMapProfileWithoutID(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := providertest.MapJSON(t, o, `{"account_type": "PINNER", "username": "pinner_jane", "profile_image": "https://i.pinimg.com/a.jpg"}`, account.TokenSet{})
	if want := (profile.User{ID: "pinner_jane", Name: "pinner_jane", Image: "https://i.pinimg.com/a.jpg"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
