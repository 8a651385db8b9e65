// Package pingid is the built-in Ping Identity provider (OpenID Connect).
// The endpoints come from discovery of the issuer the application supplies
// (AUTH_PING_ID_ISSUER), e.g. https://auth.pingone.com/<environment-id>/as
// for PingOne. The ID token's claims go through the default OpenID
// Connect mapping.
//
//	p := pingid.New(providers.OIDCUserConfig[pingid.Profile]{
//		ClientID:     os.Getenv("AUTH_PING_ID_ID"),
//		ClientSecret: os.Getenv("AUTH_PING_ID_SECRET"),
//		Issuer:       os.Getenv("AUTH_PING_ID_ISSUER"),
//	})
package pingid

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "ping-id"
	// Name is the display name.
	Name = "Ping Identity"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Ping Identity provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Ping Identity configuration before any user option: the
// scope, the default checks (pkce, state, nonce) and the button style. It
// has no issuer; the endpoints come from the issuer's discovery document.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
