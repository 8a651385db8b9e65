// Package unitedeffects is the built-in United Effects provider (OpenID
// Connect). The endpoints come from discovery of the issuer the
// application supplies (AUTH_UNITED_EFFECTS_ISSUER), of the form
// https://auth.unitedeffects.com/<authGroupId>. The authorization request
// names that issuer as the resource (RFC 8707) the token is for. The ID
// token's claims go through the default OpenID Connect mapping.
//
//	p := unitedeffects.New(providers.OIDCUserConfig[unitedeffects.Profile]{
//		ClientID:     os.Getenv("AUTH_UNITED_EFFECTS_ID"),
//		ClientSecret: os.Getenv("AUTH_UNITED_EFFECTS_SECRET"),
//		Issuer:       os.Getenv("AUTH_UNITED_EFFECTS_ISSUER"),
//	})
package unitedeffects

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "united-effects"
	// Name is the display name.
	Name = "United Effects"
	// Scope asks for an ID token with the e-mail and profile claims.
	Scope = "openid email profile"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the United Effects provider configuration for the issuer
// opts.Issuer, with opts laid over its defaults by providers.Merge.
// opts.Issuer is required: without it the configuration is incomplete and
// gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for issuer before any user option:
// the scope, resource=<issuer> (left out when issuer is "") and the
// default checks (pkce, state, nonce).
func Defaults(issuer string) providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
	if issuer != "" {
		c.Authorization.Params["resource"] = issuer
	}
	return c
}
