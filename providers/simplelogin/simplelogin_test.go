package simplelogin

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "simplelogin", Name: "SimpleLogin", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://app.simplelogin.io",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#e3156a"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "1234",
		"name": "John Wick",
		"email": "john.wick@sl.local",
		"email_verified": true,
		"avatar_url": "https://app.simplelogin.io/static/default-avatar.png",
		"client": "Demo App"
	}`
	providertest.CheckMapping(t, o, []providertest.MappingCase{{
		Name: "profile", JSON: raw, Verified: true,
		Want: profile.User{ID: "1234", Name: "John Wick", Email: "john.wick@sl.local", Image: "https://app.simplelogin.io/static/default-avatar.png"},
	}})
}
