package osso

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://demo.ossoapp.com/"}).OAuth()
	want := providertest.Config{
		ID: "osso", Name: "Osso", Type: providers.TypeOAuth,
		AuthURL:     "https://demo.ossoapp.com/oauth/authorize",
		TokenURL:    "https://demo.ossoapp.com/oauth/token",
		UserinfoURL: "https://demo.ossoapp.com/oauth/me",
		Issuer:      "https://demo.ossoapp.com/",
		Checks:      []providers.Check{providers.CheckPKCE},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://demo.ossoapp.com/"}).OAuth()
	const raw = `{
		"email": "user@example.com",
		"id": "e6a5c1b5-4a2d-4f0e-8d3b-2f9c8a7b6d5e",
		"idp": "Okta",
		"requested": {"domain": "example.com", "email": null}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "e6a5c1b5-4a2d-4f0e-8d3b-2f9c8a7b6d5e", Email: "user@example.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestIssuerWithoutSlash(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://demo.ossoapp.com"}).OAuth()
	if o.Authorization.URL != "https://demo.ossoapp.com/oauth/authorize" || o.UserinfoURL != "https://demo.ossoapp.com/oauth/me" {
		t.Errorf("endpoints = %q, %q", o.Authorization.URL, o.UserinfoURL)
	}
	if err := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts an Osso provider without an issuer")
	}
}
