package yahoo

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "yahoo", Name: "Yahoo", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://api.login.yahoo.com",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#6001d2"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"iss": "https://api.login.yahoo.com",
		"sub": "FSVIDUW3D7FSVIDUW3D72F2F",
		"aud": "cid",
		"name": "Jane Doe",
		"given_name": "Jane",
		"family_name": "Doe",
		"nickname": "jane",
		"locale": "en-US",
		"email": "janedoe@yahoo.com",
		"email_verified": true,
		"picture": "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "FSVIDUW3D7FSVIDUW3D72F2F", Name: "Jane Doe", Email: "janedoe@yahoo.com", Image: "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
