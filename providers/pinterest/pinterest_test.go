package pinterest

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestMapProfileWithoutID(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := providertest.MapJSON(t, o, `{"account_type": "PINNER", "username": "pinner_jane", "profile_image": "https://i.pinimg.com/a.jpg"}`, account.TokenSet{})
	if want := (profile.User{ID: "pinner_jane", Name: "pinner_jane", Image: "https://i.pinimg.com/a.jpg"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
