package asgardeo

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://api.asgardeo.io/t/acme/oauth2/token"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "id", Got: c.ID, Want: "asgardeo"},
		{Name: "name", Got: c.Name, Want: "Asgardeo"},
		{Name: "type", Got: c.Type, Want: providers.TypeOIDC},
		{Name: "issuer", Got: c.Issuer, Want: issuer},
		{Name: "authorization", Got: c.Authorization.URL, Want: ""},
		{Name: "token", Got: c.Token.URL, Want: ""},
		{Name: "userinfo", Got: c.Userinfo.URL, Want: ""},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		{Name: "scope set", Got: hasScope, Want: true},
		{Name: "checks", Got: c.OAuth().EffectiveChecks(false), Want: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{Name: "client auth", Got: c.Client.TokenEndpointAuthMethod, Want: providers.AuthMethod("")},
		{Name: "style", Got: c.Style, Want: providers.Style{BrandColor: "#000"}},
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
	raw := `{"sub": "8f1c2a94-3b7e-4d6a-9c55-0e2f6b1d7a33", "given_name": "Nimal",
		"family_name": "Perera", "name": "Nimal Perera", "email": "nimal@acme.lk",
		"email_verified": true, "picture": "https://acme.lk/p/nimal.png",
		"username": "nimal@acme.lk", "iss": "` + issuer + `", "aud": "cid"}`
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if u.EmailVerified == nil {
		t.Error("EmailVerified is nil, want set (email_verified is true)")
	}
	u.EmailVerified = nil
	want := profile.User{ID: "8f1c2a94-3b7e-4d6a-9c55-0e2f6b1d7a33", Name: "Nimal Perera",
		Email: "nimal@acme.lk", Image: "https://acme.lk/p/nimal.png"}
	if u != want {
		t.Errorf("user = %+v, want %+v", u, want)
	}
}
