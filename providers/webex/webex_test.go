package webex

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
		ID: "webex", Name: "Webex", Type: providers.TypeOAuth,
		AuthURL:     "https://webexapis.com/v1/authorize",
		AuthParams:  map[string]string{"scope": "spark:kms spark:people_read"},
		TokenURL:    "https://webexapis.com/v1/access_token",
		UserinfoURL: "https://webexapis.com/v1/people/me",
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
		"id": "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
		"emails": ["john.andersen@example.com", "john@example.org"],
		"phoneNumbers": [{"type": "work", "value": "+1 408 526 7209", "primary": true}],
		"displayName": "John Andersen",
		"nickName": "John",
		"firstName": "John",
		"lastName": "Andersen",
		"avatar": "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600",
		"orgId": "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFiYzJhYS0zZGNjLTExZTUtYTE1Mi1mZTM0ODE5Y2RjOWE",
		"created": "2015-10-18T14:26:16.000Z",
		"lastActivity": "2015-10-18T14:26:16.028Z",
		"status": "active",
		"type": "person"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY", Name: "John Andersen", Email: "john.andersen@example.com", Image: "https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestNewAPI(t *testing.T) {
	o := NewAPI("https://api-usgov.webex.com/v1/", providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	if o.Authorization.URL != "https://api-usgov.webex.com/v1/authorize" ||
		o.Token.URL != "https://api-usgov.webex.com/v1/access_token" ||
		o.UserinfoURL != "https://api-usgov.webex.com/v1/people/me" {
		t.Errorf("endpoints = %q, %q, %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
}
