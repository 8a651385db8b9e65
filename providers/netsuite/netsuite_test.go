package netsuite

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const restlet = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{
		ClientID: "cid", ClientSecret: "sec", Issuer: "1234567_SB1",
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: restlet},
	}).OAuth()
	want := providertest.Config{
		ID: "netsuite", Name: "NetSuite", Type: providers.TypeOAuth,
		AuthURL:     "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
		AuthParams:  map[string]string{"scope": "restlets rest_webservices"},
		TokenURL:    "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
		UserinfoURL: restlet,
		Checks:      []providers.Check{providers.CheckState},
		Style:       providers.Style{BrandColor: "#181a1b"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestAccountDomain(t *testing.T) {
	for in, want := range map[string]string{
		"TSTDRV1234567":                     "tstdrv1234567",
		"1234567_SB1":                       "1234567-sb1",
		"https://1234567.app.netsuite.com":  "1234567",
		"https://1234567.app.netsuite.com/": "1234567",
		"":                                  "",
	} {
		if got := AccountDomain(in); got != want {
			t.Errorf("AccountDomain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMissingPieces(t *testing.T) {
	// No account: no endpoints. An account but no RESTlet: no userinfo.
	for name, opts := range map[string]providers.OAuthUserConfig[Profile]{
		"no account": {ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: restlet}},
		"no restlet": {ClientID: "cid", Issuer: "1234567"},
	} {
		if err := New(opts).OAuth().Validate(); err == nil {
			t.Errorf("%s: Validate accepts it", name)
		}
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "1234567"}).OAuth()
	tests := []struct{ raw, id string }{
		{`{"id": 1234, "name": "Larry Nelson", "email": "larry@example.com", "location": 1, "role": 3, "contact": -1}`, "1234"},
		{`{"id": "1234", "name": "Larry Nelson", "email": "larry@example.com", "location": "1", "role": "3"}`, "1234"},
	}
	for _, tt := range tests {
		got := providertest.MapJSON(t, o, tt.raw, account.TokenSet{})
		want := profile.User{ID: tt.id, Name: "Larry Nelson", Email: "larry@example.com"}
		if got != want {
			t.Errorf("%s: user = %+v, want %+v", tt.raw, got, want)
		}
	}
}
