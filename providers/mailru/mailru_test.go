package mailru

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"})
	o := c.OAuth()
	want := providertest.Config{
		ID: "mailru", Name: "Mail.ru", Type: providers.TypeOAuth,
		AuthURL:     "https://oauth.mail.ru/login",
		AuthParams:  map[string]string{"scope": "userinfo"},
		TokenURL:    "https://oauth.mail.ru/token",
		UserinfoURL: "https://oauth.mail.ru/userinfo",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	providertest.CheckConfig(t, o, want)
	if c.Profile != nil {
		t.Error("Profile is set; Mail.ru uses the default mapping")
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"id": "1234567890123456789",
		"client_id": "app-1",
		"gender": "m",
		"name": "Иван Петров",
		"nickname": "vanya",
		"locale": "ru_RU",
		"first_name": "Иван",
		"last_name": "Петров",
		"birthday": "01.02.1990",
		"image": "https://filin.mail.ru/pic?d=abc&width=180&height=180",
		"email": "ivan@mail.ru"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "1234567890123456789", Name: "Иван Петров", Email: "ivan@mail.ru"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
