// Package authentik is the built-in provider for authentik (OpenID Connect).
// The issuer is the application's, https://<host>/application/o/<application
// slug>/ in authentik's default per-provider issuer mode. It must equal the
// issuer of the discovery document character for character, trailing slash
// included.
//
// The issuer has no default: set Issuer (or AUTH_AUTHENTIK_ISSUER for
// builtin.FromEnv), e.g.
// https://authentik.example.com/application/o/my-app/.
package authentik

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "authentik"
	Name  = "Authentik"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Authentik configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
