// Package yahoo is the built-in Yahoo provider (OpenID Connect), which
// Auth.js does not have. Its ID token's claims go through the default
// OpenID Connect mapping. The button uses Yahoo's brand purple.
//
//	p := yahoo.New(providers.OIDCUserConfig[yahoo.Profile]{
//		ClientID:     os.Getenv("AUTH_YAHOO_ID"),
//		ClientSecret: os.Getenv("AUTH_YAHOO_SECRET"),
//	})
package yahoo

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "yahoo"
	// Name is the display name.
	Name = "Yahoo"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://api.login.yahoo.com"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Yahoo provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Yahoo configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#6001d2"})
}
