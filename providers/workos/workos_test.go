package workos

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestCustomDomain(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://auth.example.com/"}).OAuth()
	if o.Authorization.URL != "https://auth.example.com/sso/authorize" || o.Token.URL != "https://auth.example.com/sso/token" || o.UserinfoURL != "https://auth.example.com/sso/profile" {
		t.Errorf("endpoints = %q, %q, %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
}

func TestMapProfileNoPicture(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := providertest.MapJSON(t, o, `{"id": "prof_1", "email": "a@example.com", "first_name": "Ann", "last_name": "", "raw_attributes": {"picture": 7}}`, account.TokenSet{})
	if want := (profile.User{ID: "prof_1", Name: "Ann", Email: "a@example.com"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
