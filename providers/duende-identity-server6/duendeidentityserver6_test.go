package duendeidentityserver6

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const issuer = "https://demo.duendesoftware.com"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "duende-identity-server6"},
		{"name", c.Name, "DuendeIdentityServer6"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, issuer},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"userinfo", c.Userinfo.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{}},
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
	raw := `{"sub": "2", "name": "Bob Smith", "given_name": "Bob", "family_name": "Smith",
		"email": "BobSmith@email.com", "email_verified": true, "website": "http://bob.com",
		"idp": "local", "amr": ["pwd"], "auth_time": 1700000000,
		"iss": "https://demo.duendesoftware.com", "aud": "interactive.confidential"}`
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
	want := profile.User{ID: "2", Name: "Bob Smith", Email: "BobSmith@email.com"}
	if u != want {
		t.Errorf("user = %+v, want %+v", u, want)
	}
}
