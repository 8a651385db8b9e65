package mailchimp

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
		ID: "mailchimp", Name: "Mailchimp", Type: providers.TypeOAuth,
		AuthURL:     "https://login.mailchimp.com/oauth2/authorize",
		TokenURL:    "https://login.mailchimp.com/oauth2/token",
		UserinfoURL: "https://login.mailchimp.com/oauth2/metadata",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{BrandColor: "#000"},
	}
	providertest.CheckConfig(t, o, want)
	if _, ok := o.Authorization.Scope(); ok {
		t.Error("a scope is set; Mailchimp has none")
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"dc": "us19",
		"role": "owner",
		"accountname": "Freddie's Jokes",
		"user_id": 8675309,
		"login": {
			"email": "freddie@example.com",
			"avatar": null,
			"login_id": 31337,
			"login_name": "freddie",
			"login_email": "freddie@example.com"
		},
		"login_url": "https://login.mailchimp.com",
		"api_endpoint": "https://us19.api.mailchimp.com"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "31337", Name: "Freddie's Jokes", Email: "freddie@example.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
