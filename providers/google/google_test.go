package google

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{}).OAuth()
	if o.ID != "google" || o.Name != "Google" || o.Type != providers.TypeOIDC {
		t.Fatalf("base = %+v", o.Base)
	}
	if s, _ := o.Authorization.Scope(); s != "openid profile email" {
		t.Errorf("scope = %q", s)
	}
	if o.Authorization.URL != "" || o.Token.URL != "" || o.UserinfoURL != "" {
		t.Errorf("endpoints should come from discovery")
	}
	if o.Style != (providers.Style{BrandColor: "#1a73e8"}) {
		t.Errorf("style = %+v", o.Style)
	}
	if len(o.Checks) != 0 || o.Client != (providers.Client{}) {
		t.Errorf("checks %v, client %+v: want the defaults", o.Checks, o.Client)
	}
	if err := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if c := New(providers.OAuthUserConfig[profile.Claims]{}); c.Issuer != "https://accounts.google.com" {
		t.Errorf("issuer = %q", c.Issuer)
	}
}

func TestMerge(t *testing.T) {
	c := New(providers.OAuthUserConfig[profile.Claims]{
		ClientID: "cid", ClientSecret: "sec", Issuer: "https://issuer.example.com",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid"}},
		Checks:        []providers.Check{providers.CheckPKCE},
	})
	if c.ClientID != "cid" || c.ClientSecret != "sec" || c.Issuer != "https://issuer.example.com" || c.Type != providers.TypeOIDC {
		t.Errorf("merge = %+v", c)
	}
	if s, _ := c.Authorization.Scope(); s != "openid" || len(c.Checks) != 1 || c.ID != ID || c.Name != Name {
		t.Errorf("merge = %+v", c)
	}
	u, err := c.OAuth().MapProfile(context.Background(), profile.Claims{"sub": "u1", "preferred_username": "jdoe", "email": "j@example.com", "picture": "https://img/j"}, account.TokenSet{})
	if err != nil || u.ID != "u1" || u.Name != "jdoe" || u.Email != "j@example.com" || u.Image != "https://img/j" {
		t.Errorf("user = %+v, %v", u, err)
	}
}
