// Package kinde is the built-in Kinde provider (OpenID Connect). Its
// endpoints come from discovery of the issuer the application supplies
// (its Kinde domain, e.g. https://acme.kinde.com); the ID token's claims
// are mapped by the default OpenID Connect mapping.
//
//	p := kinde.New(providers.OIDCUserConfig[kinde.Profile]{
//		ClientID:     os.Getenv("AUTH_KINDE_ID"),
//		ClientSecret: os.Getenv("AUTH_KINDE_SECRET"),
//		Issuer:       os.Getenv("AUTH_KINDE_ISSUER"),
//	})
package kinde

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "kinde"
	// Name is the display name.
	Name = "Kinde"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Kinde provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope,
// the checks (state and pkce) and the button style. It has no issuer.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#fff"})
	c.Checks = []providers.Check{providers.CheckState, providers.CheckPKCE}
	return c
}
