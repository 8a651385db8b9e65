// Package cognito is the built-in provider for Amazon Cognito user pools
// (OpenID Connect). The issuer is the user pool's,
// https://cognito-idp.<region>.amazonaws.com/<user pool id> (not the hosted
// UI domain).
//
// The issuer has no default: set Issuer (or AUTH_COGNITO_ISSUER for
// builtin.FromEnv), e.g.
// https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI.
package cognito

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "cognito"
	Name  = "Cognito"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Cognito configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#C17B9E"})
}
