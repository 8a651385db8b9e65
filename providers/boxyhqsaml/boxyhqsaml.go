// Package boxyhqsaml is the built-in BoxyHQ SAML provider: SAML single
// sign-on through SAML Jackson, which bridges SAML identity providers to
// OAuth 2.0. The issuer is the Jackson service's base URL (for BoxyHQ's
// hosted service, https://jackson-demo.boxyhq.com for trials); the
// endpoints are paths below it.
//
//	p := boxyhqsaml.New(providers.OAuthUserConfig[boxyhqsaml.Profile]{
//		ClientID:     "dummy",
//		ClientSecret: "dummy",
//		Issuer:       os.Getenv("AUTH_BOXYHQ_SAML_ISSUER"),
//		Authorization: providers.AuthorizationEndpoint{
//			Params: map[string]string{"tenant": "acme.com", "product": "crm"},
//		},
//	})
//
// Jackson finds the SAML connection from tenant and product. Auth.js has
// the application pass them with each sign-in; Gatehouse hands on only a
// fixed list of sign-in parameters, so set them in Authorization.Params
// as above, or use the connection's own client id and secret instead of
// "dummy" (Jackson also accepts the client id
// "tenant=acme.com&product=crm" with the secret "dummy"), one provider
// entry per connection.
package boxyhqsaml

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths below the issuer.
const (
	// ID is the provider id, part of its URLs.
	ID = "boxyhq-saml"
	// Name is the display name.
	Name = "BoxyHQ SAML"
	// AuthorizationPath is where the user is sent on to their SAML
	// identity provider.
	AuthorizationPath = "/api/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/api/oauth/token"
	// UserinfoPath answers the Profile as JSON to a Bearer GET.
	UserinfoPath = "/api/oauth/userinfo"
	// Provider is the provider authorization parameter: "saml".
	Provider = "saml"
)

// Profile is the answer of GET /api/oauth/userinfo: the SAML assertion's
// user, as Jackson maps it.
type Profile struct {
	// ID is the user's id from the SAML assertion (its NameID, or the
	// mapped id attribute).
	ID string `json:"id"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// FirstName is the user's first name.
	FirstName string `json:"firstName,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"lastName,omitempty"`
	// Roles are the user's roles, when the identity provider sends them.
	Roles []string `json:"roles,omitempty"`
	// Groups are the user's groups, when the identity provider sends them.
	Groups []string `json:"groups,omitempty"`
	// Raw holds every attribute of the assertion.
	Raw map[string]any `json:"raw,omitempty"`
	// Requested echoes the authorization request: tenant, product,
	// client_id, state.
	Requested map[string]any `json:"requested,omitempty"`
}

// New returns the BoxyHQ SAML provider configuration for the Jackson
// service at opts.Issuer, with opts laid over its defaults by
// providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the Jackson service at issuer
// (a trailing slash is allowed): the endpoints below it, the provider=saml
// parameter, the default checks (pkce), MapProfile and the button style.
// With issuer "" the endpoints are left empty, and gatehouse.New reports
// the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile, providers.Style{BrandColor: "#25c2a0"})
	c.Authorization.Params = map[string]string{"provider": Provider}
	return c
}

// MapProfile maps a Jackson user to a user: id ← id, name ← "firstName
// lastName" (whichever parts are present), email ← email, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: profile.FullName(p.FirstName, p.LastName), Email: p.Email}, ID, "profile has no id")
}
