package workos

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "client_01H", ClientSecret: "sk_test"}).OAuth()
	want := providertest.Config{
		ID: "workos", Name: "WorkOS", Type: providers.TypeOAuth,
		AuthURL:     "https://api.workos.com/sso/authorize",
		TokenURL:    "https://api.workos.com/sso/token",
		UserinfoURL: "https://api.workos.com/sso/profile",
		Checks:      []providers.Check{providers.CheckPKCE},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{BrandColor: "#6363f1"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "client_01H", ClientSecret: "sk_test"}).OAuth()
	const raw = `{
		"object": "profile",
		"id": "prof_01DMC79VCBZ0NY2099737PSVF1",
		"connection_id": "conn_01E4ZCR3C56J083X43JQXF3JK5",
		"connection_type": "okta",
		"organization_id": "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
		"email": "todd@example.com",
		"first_name": "Todd",
		"last_name": "Rundgren",
		"idp_id": "00u1a0ufowBJlzPlk357",
		"role": {"slug": "admin"},
		"raw_attributes": {"picture": "https://example.com/todd.jpg", "department": "Engineering"}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "prof_01DMC79VCBZ0NY2099737PSVF1", Name: "Todd Rundgren", Email: "todd@example.com", Image: "https://example.com/todd.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

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
