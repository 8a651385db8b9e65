package netsuite

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

const restlet = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"

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
