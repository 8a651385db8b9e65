package okta

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const issuer = "https://dev-123456.okta.com/oauth2/default"

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{}).OAuth()
	scope, _ := o.Authorization.Scope()
	providertest.CheckFields(t, []providertest.Field{
		{Name: "base", Got: o.Base, Want: providers.Base{ID: "okta", Name: "Okta", Type: providers.TypeOIDC}},
		{Name: "scope", Got: scope, Want: "openid profile email"},
		// The endpoints come from discovery.
		{Name: "endpoints", Got: [3]string{o.Authorization.URL, o.Token.URL, o.UserinfoURL}, Want: [3]string{}},
		{Name: "style", Got: o.Style, Want: providers.Style{BrandColor: "#000"}},
		{Name: "checks", Got: len(o.Checks), Want: 0},
		{Name: "client", Got: o.Client, Want: providers.Client{}},
	})
	// No default issuer: the configuration is incomplete without one.
	providertest.CheckIssuerRequired(t, New, issuer)
}

func TestMerge(t *testing.T) {
	c := providertest.CheckMerge(t, New, providers.Base{ID: ID, Name: Name, Type: providers.TypeOIDC}, issuer)
	u, err := c.OAuth().MapProfile(context.Background(), profile.Claims{"sub": "u1", "preferred_username": "jdoe", "email": "j@example.com", "picture": "https://img/j"}, account.TokenSet{})
	if err != nil || u.ID != "u1" || u.Name != "jdoe" || u.Email != "j@example.com" || u.Image != "https://img/j" {
		t.Errorf("user = %+v, %v", u, err)
	}
}
