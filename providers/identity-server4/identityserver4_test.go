package identityserver4

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const issuer = "https://identity.acme.test"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "identity-server4"},
		{"name", c.Name, "IdentityServer4"},
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
	raw := `{"sub": "88421113", "preferred_username": "alice", "email": "AliceSmith@email.com",
		"email_verified": "false", "idp": "local", "amr": ["pwd"],
		"iss": "https://identity.acme.test", "aud": "webapp"}`
	o := New(providers.OIDCUserConfig[Profile]{}).OAuth()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if (u.EmailVerified != nil) != false {
		t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, false)
	}
	u.EmailVerified = nil
	want := profile.User{ID: "88421113", Name: "alice", Email: "AliceSmith@email.com"}
	if u != want {
		t.Errorf("user = %+v, want %+v", u, want)
	}
}
