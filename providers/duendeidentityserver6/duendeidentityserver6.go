// Package duendeidentityserver6 is the built-in Duende IdentityServer 6
// provider (OpenID Connect). Its endpoints come from discovery of the
// issuer the application supplies (its demo server is
// https://demo.duendesoftware.com); the ID token's claims are mapped by the
// default OpenID Connect mapping.
//
//	p := duendeidentityserver6.New(providers.OIDCUserConfig[duendeidentityserver6.Profile]{
//		ClientID:     os.Getenv("AUTH_DUENDE_IDENTITY_SERVER6_ID"),
//		ClientSecret: os.Getenv("AUTH_DUENDE_IDENTITY_SERVER6_SECRET"),
//		Issuer:       os.Getenv("AUTH_DUENDE_IDENTITY_SERVER6_ISSUER"),
//	})
package duendeidentityserver6

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "duende-identity-server6"
	// Name is the display name.
	Name = "DuendeIdentityServer6"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
	// DemoIssuer is Duende's public demo server, handy for trying the
	// provider out.
	DemoIssuer = "https://demo.duendesoftware.com"
)

// Profile is the ID token's claims (sub, name, email, …).
type Profile = profile.Claims

// New returns the Duende IdentityServer 6 provider configuration with opts
// laid over its defaults by providers.Merge. opts.Issuer is required:
// without it the configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope
// and the default checks. It has no issuer and no button style.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
}
