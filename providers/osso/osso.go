// Package osso is the built-in Osso provider (OAuth 2.0 in front of SAML
// identity providers). Osso is self-hosted: the endpoints are those of the
// deployment whose base URL is the Issuer option (AUTH_OSSO_ISSUER), e.g.
// https://demo.ossoapp.com. The profile goes through the default mapping
// (profile.FromClaims).
//
// Auth.js builds the endpoints by appending "oauth/…" to the issuer and so
// needs it to end with a slash; here the issuer works with or without one.
// Which SAML connection to use is chosen per sign-in with Osso's domain or
// email authorization parameter.
//
//	p := osso.New(providers.OAuthUserConfig[osso.Profile]{
//		ClientID:     os.Getenv("AUTH_OSSO_ID"),
//		ClientSecret: os.Getenv("AUTH_OSSO_SECRET"),
//		Issuer:       os.Getenv("AUTH_OSSO_ISSUER"),
//	})
package osso

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the deployment's
// base URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "osso"
	// Name is the display name.
	Name = "Osso"
	// AuthorizationPath is where the user is sent to their SAML provider.
	AuthorizationPath = "/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/oauth/token"
	// UserinfoPath answers the Profile to a Bearer GET.
	UserinfoPath = "/oauth/me"
)

// Profile is the answer of Osso's /oauth/me.
type Profile struct {
	// ID is the user's id at Osso.
	ID string `json:"id"`
	// Email is the user's e-mail address, as the SAML provider asserted.
	Email string `json:"email"`
	// IDP is the kind of SAML provider, e.g. "Okta" or "Azure".
	IDP string `json:"idp"`
	// Requested is what the authorization request asked for.
	Requested Requested `json:"requested"`
}

// Requested holds the domain or e-mail address the sign-in was started
// with.
type Requested struct {
	// Domain is the requested domain, if any.
	Domain string `json:"domain,omitempty"`
	// Email is the requested e-mail address, if any.
	Email string `json:"email,omitempty"`
}

// New returns the Osso provider configuration for the deployment at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the deployment at issuer, its
// base URL. It sets no scope and no Profile: the default mapping gives
// id ← id, email ← email. With issuer "" the endpoints are left empty, and
// gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults[Profile](ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), nil, providers.Style{})
}
