package vipps

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
		ID: "vipps", Name: "Vipps", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid name email"},
		Issuer:     "https://api.vipps.no/access-management-1.0/access/",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#f05c18"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "c06c4afe-d9e1-4c5d-939a-177d752a0944",
		"name": "Ada Lovelace",
		"given_name": "Ada",
		"family_name": "Lovelace",
		"email": "ada.lovelace@example.com",
		"email_verified": true,
		"sid": "7d78a726-af92-499e-b857-8d4e8b2e3c5b"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "c06c4afe-d9e1-4c5d-939a-177d752a0944", Name: "Ada Lovelace", Email: "ada.lovelace@example.com"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
