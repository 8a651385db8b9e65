// Package vipps is the built-in Vipps MobilePay login provider (OpenID
// Connect) for production; the test environment's issuer is
// https://apitest.vipps.no/access-management-1.0/access/, passed as the
// Issuer option. The callback checks pkce, state and nonce (the default).
//
// Auth.js turns the ID token off for Vipps (idToken: false) and reads the
// profile from the userinfo endpoint, because Vipps puts the name and
// e-mail address only there. Gatehouse's model has no such switch: the
// name and e-mail address reach the mapping only from the userinfo answer.
//
//	p := vipps.New(providers.OIDCUserConfig[vipps.Profile]{
//		ClientID:     os.Getenv("AUTH_VIPPS_ID"),
//		ClientSecret: os.Getenv("AUTH_VIPPS_SECRET"),
//	})
package vipps

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "vipps"
	// Name is the display name.
	Name = "Vipps"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://api.vipps.no/access-management-1.0/access/"
	// Scope asks for an ID token and the user's name and e-mail address.
	Scope = "openid name email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Vipps provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Vipps configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#f05c18"})
}
