// Package salesforce is the built-in Salesforce provider (OpenID Connect)
// for production orgs; sandboxes use the issuer https://test.salesforce.com
// and My Domain orgs their own, passed as the Issuer option. The claims go
// through the default OpenID Connect mapping.
//
// Auth.js turns the ID token off for Salesforce (idToken: false) and
// reads the profile from the userinfo endpoint. Gatehouse's model has no
// such switch: Salesforce's ID token carries the same sub, name, email
// and picture claims as its userinfo answer, so the mapping gives the
// same user, and the ID token is verified.
//
//	p := salesforce.New(providers.OIDCUserConfig[salesforce.Profile]{
//		ClientID:     os.Getenv("AUTH_SALESFORCE_ID"),
//		ClientSecret: os.Getenv("AUTH_SALESFORCE_SECRET"),
//	})
package salesforce

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "salesforce"
	// Name is the display name.
	Name = "Salesforce"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://login.salesforce.com"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Salesforce provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Salesforce configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#00a1e0"})
}
