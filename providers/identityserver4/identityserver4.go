// Package identityserver4 is the built-in IdentityServer4 provider (OpenID
// Connect). Its endpoints come from discovery of the issuer the
// application supplies; the ID token's claims are mapped by the default
// OpenID Connect mapping.
//
//	p := identityserver4.New(providers.OIDCUserConfig[identityserver4.Profile]{
//		ClientID:     os.Getenv("AUTH_IDENTITY_SERVER4_ID"),
//		ClientSecret: os.Getenv("AUTH_IDENTITY_SERVER4_SECRET"),
//		Issuer:       os.Getenv("AUTH_IDENTITY_SERVER4_ISSUER"),
//	})
package identityserver4

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "identity-server4"
	// Name is the display name.
	Name = "IdentityServer4"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, …).
type Profile = profile.Claims

// New returns the IdentityServer4 provider configuration with opts laid
// over its defaults by providers.Merge. opts.Issuer is required: without
// it the configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope
// and the default checks. It has no issuer and no button style.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
