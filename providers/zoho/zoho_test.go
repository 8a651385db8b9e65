package zoho

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
		ID: "zoho", Name: "Zoho", Type: providers.TypeOAuth,
		AuthURL:     "https://accounts.zoho.com/oauth/v2/auth",
		AuthParams:  map[string]string{"scope": "AaaServer.profile.Read"},
		TokenURL:    "https://accounts.zoho.com/oauth/v2/token",
		UserinfoURL: "https://accounts.zoho.com/oauth/user/info",
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
		"First_Name": "Patricia",
		"Email": "patricia@zylker.com",
		"Last_Name": "Boyle",
		"Display_Name": "patricia.b",
		"ZUID": 7009112345
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "7009112345", Name: "Patricia Boyle", Email: "patricia@zylker.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
