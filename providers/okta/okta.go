// Package okta is the built-in provider for Okta (OpenID Connect). The
// issuer is the org authorization server, https://<org>.okta.com, or a
// custom one, https://<org>.okta.com/oauth2/<server id> ("default" for the
// default custom server).
//
// The issuer has no default: set Issuer (or AUTH_OKTA_ISSUER for
// builtin.FromEnv), e.g. https://dev-123456.okta.com/oauth2/default.
package okta

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID    = "okta"
	Name  = "Okta"
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …),
// mapped by profile.FromClaims.
type Profile = profile.Claims

// New returns the Okta configuration with opts laid over its defaults by
// providers.Merge. The endpoints come from discovery; the profile is the
// ID token's claims, mapped by profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#000"})
}
