package zoom

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
		ID: "zoom", Name: "Zoom", Type: providers.TypeOAuth,
		AuthURL:     "https://zoom.us/oauth/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://zoom.us/oauth/token",
		UserinfoURL: "https://api.zoom.us/v2/users/me",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#0b5cff"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"id": "KDcuGIm1QgePTO8WbOqwIQ",
		"first_name": "Jill",
		"last_name": "Chill",
		"display_name": "Jill Chill",
		"email": "jchill@example.com",
		"type": 1,
		"role_name": "Owner",
		"pmi": 3542471135,
		"use_pmi": false,
		"personal_meeting_url": "https://zoom.us/j/3542471135",
		"timezone": "Asia/Shanghai",
		"verified": 1,
		"dept": "",
		"created_at": "2019-06-01T07:58:03Z",
		"last_login_time": "2019-06-01T07:58:03Z",
		"pic_url": "https://example.com/photo.jpg",
		"language": "en-US",
		"phone_number": "",
		"status": "active",
		"role_id": "0",
		"account_id": "q6gBJVO5TzexKYTb_I2rpg"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "KDcuGIm1QgePTO8WbOqwIQ", Name: "Jill Chill", Email: "jchill@example.com", Image: "https://example.com/photo.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
