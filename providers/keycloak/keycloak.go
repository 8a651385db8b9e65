// Package keycloak is the built-in provider for Keycloak (OpenID Connect).
// The issuer is the realm's URL, https://<host>/realms/<realm>
// (https://<host>/auth/realms/<realm> on Keycloak before 17).
//
// The issuer has no default: set Issuer (or AUTH_KEYCLOAK_ISSUER for
// builtin.FromEnv), e.g. https://keycloak.example.com/realms/myrealm.
package keycloak

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "keycloak"
	Name  = "Keycloak"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Keycloak configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#428bca"})
}
