package twitch

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
		ID: "twitch", Name: "Twitch", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid user:read:email", "claims": `{"id_token":{"email":null,"picture":null,"preferred_username":null}}`},
		Issuer:     "https://id.twitch.tv/oauth2",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		AuthMethod: providers.AuthClientSecretPost,
		Style:      providers.Style{BrandColor: "#65459B"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"aud": "hof5gwx0su6owfnys0yan9c87zr6t",
		"exp": 1642108567,
		"iat": 1642107667,
		"iss": "https://id.twitch.tv/oauth2",
		"sub": "713936733",
		"azp": "hof5gwx0su6owfnys0yan9c87zr6t",
		"nonce": "abcdef",
		"email": "scotwht@justin.tv",
		"email_verified": true,
		"picture": "https://static-cdn.jtvnw.net/jtv_user_pictures/profile_image-300x300.png",
		"preferred_username": "scotwht"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "713936733", Name: "scotwht", Email: "scotwht@justin.tv", Image: "https://static-cdn.jtvnw.net/jtv_user_pictures/profile_image-300x300.png"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
