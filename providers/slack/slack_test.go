package slack

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
		ID: "slack", Name: "Slack", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://slack.com",
		Checks:     []providers.Check{providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#611f69"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"iss": "https://slack.com",
		"sub": "U0R7JM",
		"aud": "25259531569.1115258246291",
		"exp": 1626874955,
		"iat": 1626874655,
		"auth_time": 1626874655,
		"nonce": "abcd",
		"https://slack.com/user_id": "U0R7JM",
		"https://slack.com/team_id": "T0R7GR",
		"email": "krane@slack-corp.com",
		"email_verified": true,
		"date_email_verified": 1622128723,
		"name": "krane",
		"picture": "https://secure.gravatar.com/avatar/bc.png",
		"given_name": "Bront",
		"family_name": "Labradoodle",
		"locale": "en-US",
		"https://slack.com/team_name": "kraneflannel"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "U0R7JM", Name: "krane", Email: "krane@slack-corp.com", Image: "https://secure.gravatar.com/avatar/bc.png"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
