package webex

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNewAPI(t *testing.T) {
	o := NewAPI("https://api-usgov.webex.com/v1/", providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	if o.Authorization.URL != "https://api-usgov.webex.com/v1/authorize" ||
		o.Token.URL != "https://api-usgov.webex.com/v1/access_token" ||
		o.UserinfoURL != "https://api-usgov.webex.com/v1/people/me" {
		t.Errorf("endpoints = %q, %q, %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
}
