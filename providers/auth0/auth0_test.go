package auth0

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestIssuer(t *testing.T) {
	for in, want := range map[string]string{
		"https://dev-abc.us.auth0.com":  "https://dev-abc.us.auth0.com/",
		"https://dev-abc.us.auth0.com/": "https://dev-abc.us.auth0.com/",
		"https://login.example.com":     "https://login.example.com/",
	} {
		c := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid", Issuer: in})
		if c.Issuer != want {
			t.Errorf("issuer %q → %q, want %q", in, c.Issuer, want)
		}
		if err := c.OAuth().Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}
	}
	c := New(providers.OAuthUserConfig[profile.Claims]{Name: "Login", Checks: []providers.Check{providers.CheckState}})
	if c.Name != "Login" || len(c.Checks) != 1 || c.ID != ID || c.Type != providers.TypeOIDC {
		t.Errorf("merge = %+v", c)
	}
}
