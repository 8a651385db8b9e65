package wikimedia

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
		ID: "wikimedia", Name: "Wikimedia", Type: providers.TypeOAuth,
		AuthURL:     "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
		UserinfoURL: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
		Checks:      []providers.Check{providers.CheckPKCE},
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
		"sub": 39823752,
		"username": "Example Editor",
		"editcount": 1234,
		"confirmed_email": true,
		"blocked": false,
		"registered": "20150812153000",
		"groups": ["*", "user", "autoconfirmed"],
		"rights": ["read", "edit", "createpage"],
		"grants": ["basic"],
		"realname": "",
		"email": "editor@example.org"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "39823752", Name: "Example Editor", Email: "editor@example.org"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
