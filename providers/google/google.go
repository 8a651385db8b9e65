// Package google is the built-in provider for Google (OpenID Connect).
// Google sends a refresh token only when asked for offline access: add
// Params access_type=offline and prompt=consent to the authorization
// endpoint.
package google

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID   = "google"
	Name = "Google"
	// Issuer is the ID token issuer and the discovery base.
	Issuer = "https://accounts.google.com"
	Scope  = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Google configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#1a73e8"})
}
