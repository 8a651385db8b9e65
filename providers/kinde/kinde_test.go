package kinde

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const issuer = "https://acme.kinde.com"

func TestNew(t *testing.T) {
	c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: issuer})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "kinde"},
		{"name", c.Name, "Kinde"},
		{"type", c.Type, providers.TypeOIDC},
		{"issuer", c.Issuer, issuer},
		{"authorization", c.Authorization.URL, ""},
		{"token", c.Token.URL, ""},
		{"userinfo", c.Userinfo.URL, ""},
		{"scope", scope, "openid profile email"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckState, providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{Bg: "#fff", Text: "#0F0F0F"}},
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
