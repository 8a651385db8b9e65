// Package onelogin is the built-in OneLogin provider (OpenID Connect). The
// endpoints come from discovery of the issuer the application supplies
// (AUTH_ONELOGIN_ISSUER): OneLogin's OpenID Connect v2 issuer,
// https://<subdomain>.onelogin.com/oidc/2, whose discovery document is at
// <issuer>/.well-known/openid-configuration. (Auth.js also declares a
// wellKnown URL of <issuer>/oidc/2/.well-known/openid-configuration, which
// its core ignores.) The ID token's claims go through the default OpenID
// Connect mapping.
//
//	p := onelogin.New(providers.OIDCUserConfig[onelogin.Profile]{
//		ClientID:     os.Getenv("AUTH_ONELOGIN_ID"),
//		ClientSecret: os.Getenv("AUTH_ONELOGIN_SECRET"),
//		Issuer:       os.Getenv("AUTH_ONELOGIN_ISSUER"),
//	})
package onelogin

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "onelogin"
	// Name is the display name.
	Name = "OneLogin"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the OneLogin provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the OneLogin configuration before any user option: the
// scope, the default checks (pkce, state, nonce) and the button style. It
// has no issuer; the endpoints come from the issuer's discovery document.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
