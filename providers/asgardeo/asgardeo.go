// Package asgardeo is the built-in Asgardeo provider (OpenID Connect, WSO2's
// identity service). Its endpoints come from discovery of the issuer the
// application supplies; the ID token's claims are mapped by the default
// OpenID Connect mapping.
//
//	p := asgardeo.New(providers.OIDCUserConfig[asgardeo.Profile]{
//		ClientID:     os.Getenv("AUTH_ASGARDEO_ID"),
//		ClientSecret: os.Getenv("AUTH_ASGARDEO_SECRET"),
//		Issuer:       os.Getenv("AUTH_ASGARDEO_ISSUER"),
//	})
package asgardeo

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "asgardeo"
	// Name is the display name.
	Name = "Asgardeo"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, given_name, email, picture, …).
// The issuer has the form https://api.asgardeo.io/t/<organization>/oauth2/token:
// Asgardeo serves its discovery document below that path, so Gatehouse's
// usual <issuer>/.well-known/openid-configuration finds it.
type Profile = profile.Claims

// New returns the Asgardeo provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Asgardeo configuration before any user option: the
// scope, the default checks and the button style. It has no issuer; the
// endpoints come from the issuer's discovery document.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#000"})
}
