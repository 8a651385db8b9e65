package kinde

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://acme.kinde.com"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "kinde"},
		{Name: "name", Got: c.Name, Want: "Kinde"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: issuer},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckState, providers.CheckPKCE}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#fff"}},
		{Name: "profile callback", Got: c.Profile == nil, Want: true},
	})
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate with an issuer: %v", err)
	}
	if err := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate without an issuer passed, want an error")
	}
}

func TestMapProfile(t *testing.T) {
	raw := `{"sub": "kp_0c1f9a4e7d2b43c8a1e5f6d7b8c9a0b1", "name": "Aroha Ngata",
		"given_name": "Aroha", "family_name": "Ngata", "email": "aroha@acme.nz",
		"email_verified": true, "picture": "https://lh3.googleusercontent.com/a/aroha",
		"iss": "https://acme.kinde.com", "aud": ["cid"], "org_code": "org_1a2b3c"}`
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if (u.EmailVerified != nil) != true {
		t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, true)
	}
	u.EmailVerified = nil
	want := profile.User{ID: "kp_0c1f9a4e7d2b43c8a1e5f6d7b8c9a0b1", Name: "Aroha Ngata", Email: "aroha@acme.nz", Image: "https://lh3.googleusercontent.com/a/aroha"}
	if u != want {
		t.Errorf("user = %+v, want %+v", u, want)
	}
}
