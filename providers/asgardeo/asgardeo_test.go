package asgardeo

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const issuer = "https://api.asgardeo.io/t/acme/oauth2/token"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "asgardeo"},
		{"name", c.Name, "Asgardeo"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, issuer},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"userinfo", c.Userinfo.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#000", Text: "#fff"}},
		{"profile callback", c.Profile == nil, true},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
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
