package osso

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestIssuerWithoutSlash(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://demo.ossoapp.com"}).OAuth()
	if o.Authorization.URL != "https://demo.ossoapp.com/oauth/authorize" || o.UserinfoURL != "https://demo.ossoapp.com/oauth/me" {
		t.Errorf("endpoints = %q, %q", o.Authorization.URL, o.UserinfoURL)
	}
	if err := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts an Osso provider without an issuer")
	}
}
