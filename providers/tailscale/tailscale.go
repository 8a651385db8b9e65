// Package tailscale is the built-in provider for Tailscale's identity
// provider, tsidp (OpenID Connect): the self-hosted service that signs in
// the tailnet's users. The issuer is the URL tsidp is served at, e.g.
// https://idp.<tailnet>.ts.net.
//
// The issuer has no default: set Issuer (or AUTH_TAILSCALE_ISSUER for
// builtin.FromEnv), e.g. https://idp.example.ts.net.
package tailscale

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "tailscale"
	Name  = "Tailscale"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Tailscale configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
