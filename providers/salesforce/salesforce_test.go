package salesforce

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
		ID: "salesforce", Name: "Salesforce", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://login.salesforce.com",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Style:      providers.Style{BrandColor: "#00a1e0"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK",
		"user_id": "005x0000000UnYmAAK",
		"organization_id": "00Dx0000000A9y0EAC",
		"preferred_username": "admin@acme.example",
		"nickname": "admin",
		"name": "Alice Admin",
		"email": "admin@acme.example",
		"email_verified": true,
		"given_name": "Alice",
		"family_name": "Admin",
		"zoneinfo": "America/Los_Angeles",
		"picture": "https://acme.my.salesforce.com/profilephoto/005/F",
		"locale": "en_US"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "https://login.salesforce.com/id/00Dx0000000A9y0EAC/005x0000000UnYmAAK", Name: "Alice Admin", Email: "admin@acme.example", Image: "https://acme.my.salesforce.com/profilephoto/005/F"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
