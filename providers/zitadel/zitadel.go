// Package zitadel is the built-in provider for ZITADEL (OpenID Connect). The
// issuer is the instance's domain, e.g. https://<instance>.zitadel.cloud or
// a custom domain.
//
// The issuer has no default: set Issuer (or AUTH_ZITADEL_ISSUER for
// builtin.FromEnv), e.g. https://my-instance.zitadel.cloud.
package zitadel

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "zitadel"
	Name  = "ZITADEL"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the ZITADEL configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
