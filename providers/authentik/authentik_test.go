package authentik

import (
	"context"
	"errors"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{}).OAuth()
	if o.ID != "authentik" || o.Name != "Authentik" || o.Type != providers.TypeOIDC {
		t.Fatalf("base = %+v", o.Base)
	}
	if s, _ := o.Authorization.Scope(); s != "openid profile email" {
		t.Errorf("scope = %q", s)
	}
	if o.Authorization.URL != "" || o.Token.URL != "" || o.UserinfoURL != "" {
		t.Errorf("endpoints should come from discovery")
	}
	if o.Style != (providers.Style{}) {
		t.Errorf("style = %+v", o.Style)
	}
	if len(o.Checks) != 0 || o.Client != (providers.Client{}) {
		t.Errorf("checks %v, client %+v: want the defaults", o.Checks, o.Client)
	}
	// No default issuer: the configuration is incomplete without one.
	var ce *providers.ConfigError
	if err := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth().Validate(); !errors.As(err, &ce) || ce.Field != "authorization" && ce.Field != "issuer" {
		t.Errorf("Validate without issuer = %v", err)
	}
	if err := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid", Issuer: "https://authentik.example.com/application/o/my-app/"}).OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMerge(t *testing.T) {
	c := New(providers.OAuthUserConfig[profile.Claims]{
		ClientID: "cid", ClientSecret: "sec", Issuer: "https://authentik.example.com/application/o/my-app/",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid"}},
		Checks:        []providers.Check{providers.CheckPKCE},
	})
	if c.ClientID != "cid" || c.ClientSecret != "sec" || c.Issuer != "https://authentik.example.com/application/o/my-app/" || c.Type != providers.TypeOIDC {
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
