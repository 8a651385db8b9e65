package builtin

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/authentik"
	"github.com/gatehouse-auth/gatehouse/providers/cognito"
	"github.com/gatehouse-auth/gatehouse/providers/google"
	"github.com/gatehouse-auth/gatehouse/providers/keycloak"
	"github.com/gatehouse-auth/gatehouse/providers/okta"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
	"github.com/gatehouse-auth/gatehouse/providers/tailscale"
	"github.com/gatehouse-auth/gatehouse/providers/zitadel"
)

// TestGenericOIDC: the providers that are a plain OpenID Connect issuer
// (endpoints from discovery, the ID token's claims mapped by
// profile.FromClaims) keep every user option over their defaults, need an
// issuer unless they have one, and map preferred_username as a name. Their
// facts are in testdata/providers (TestBuiltinGoldens).
func TestGenericOIDC(t *testing.T) {
	for _, tc := range []struct {
		id, name string
		newFn    providertest.NewFunc[profile.Claims]
		issuer   string // an example issuer
		own      bool   // the provider has an issuer of its own
	}{
		{authentik.ID, authentik.Name, authentik.New, "https://authentik.example.com/application/o/my-app/", false},
		{cognito.ID, cognito.Name, cognito.New, "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI", false},
		{google.ID, google.Name, google.New, "https://issuer.example.com", true},
		{keycloak.ID, keycloak.Name, keycloak.New, "https://keycloak.example.com/realms/myrealm", false},
		{okta.ID, okta.Name, okta.New, "https://dev-123456.okta.com/oauth2/default", false},
		{tailscale.ID, tailscale.Name, tailscale.New, "https://idp.example.ts.net", false},
		{zitadel.ID, zitadel.Name, zitadel.New, "https://my-instance.zitadel.cloud", false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			if !tc.own {
				providertest.CheckIssuerRequired(t, tc.newFn, tc.issuer)
			}
			c := providertest.CheckMerge(t, tc.newFn, providers.Base{ID: tc.id, Name: tc.name, Type: providers.TypeOIDC}, tc.issuer)
			u, err := c.OAuth().MapProfile(context.Background(), profile.Claims{"sub": "u1", "preferred_username": "jdoe", "email": "j@example.com", "picture": "https://img/j"}, account.TokenSet{})
			if err != nil || u.ID != "u1" || u.Name != "jdoe" || u.Email != "j@example.com" || u.Image != "https://img/j" {
				t.Errorf("user = %+v, %v", u, err)
			}
		})
	}
}
