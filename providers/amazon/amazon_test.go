package amazon

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
		ID: "amazon", Name: "Amazon", Type: providers.TypeOAuth,
		AuthURL:     "https://www.amazon.com/ap/oa",
		AuthParams:  map[string]string{"scope": "profile"},
		TokenURL:    "https://api.amazon.com/auth/o2/token",
		UserinfoURL: "https://api.amazon.com/user/profile",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#ff9900"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"user_id": "amzn1.account.K2LI23KL2LK2",
		"email": "mhashimoto-04@plaxo.com",
		"name": "Mork Hashimoto",
		"postal_code": "98052"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "amzn1.account.K2LI23KL2LK2", Name: "Mork Hashimoto", Email: "mhashimoto-04@plaxo.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
