// Package roblox is the built-in Roblox provider (OpenID Connect). The
// issuer ends with a slash, as Roblox's ID tokens say it; the ID token's
// claims (sub, name, nickname, preferred_username, picture) go through the
// default OpenID Connect mapping. Roblox gives no e-mail address.
//
//	p := roblox.New(providers.OIDCUserConfig[roblox.Profile]{
//		ClientID:     os.Getenv("AUTH_ROBLOX_ID"),
//		ClientSecret: os.Getenv("AUTH_ROBLOX_SECRET"),
//	})
package roblox

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "roblox"
	// Name is the display name.
	Name = "Roblox"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://apis.roblox.com/oauth/"
	// Scope asks for an ID token with the profile claims.
	Scope = "openid profile"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Roblox provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Roblox configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#5865F2"})
	c.Checks = []providers.Check{providers.CheckPKCE, providers.CheckState}
	return c
}
