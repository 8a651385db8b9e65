// Package auth0 is the built-in Auth0 provider (OpenID Connect).
//
// The issuer has no default: set Issuer (or AUTH_AUTH0_ISSUER for
// builtin.FromEnv) to the tenant's domain, https://<tenant>.<region>.auth0.com,
// or its custom domain. Auth0's issuer always ends in a slash; New adds
// one when it is missing, so that the discovery document's issuer and the
// ID tokens' iss match the configuration.
package auth0

import (
	"strings"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "auth0"
	Name  = "Auth0"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Auth0 configuration with opts laid over its defaults by
// providers.Merge, and a trailing slash added to the issuer. The endpoints
// come from discovery; the profile is the ID token's claims, mapped by
// profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	c := providers.Merge(Defaults(), opts)
	c.Issuer = NormalizeIssuer(c.Issuer)
	return c
}

// NormalizeIssuer returns issuer with a trailing slash, or "" for "".
func NormalizeIssuer(issuer string) string {
	if issuer == "" || strings.HasSuffix(issuer, "/") {
		return issuer
	}
	return issuer + "/"
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#EB5424"})
}
