// Package slack is the built-in Sign in with Slack provider (OpenID
// Connect). The callback checks the ID token's nonce only, as Auth.js's
// configuration does; the ID token's claims go through the default OpenID
// Connect mapping (sub is the Slack user id).
//
//	p := slack.New(providers.OIDCUserConfig[slack.Profile]{
//		ClientID:     os.Getenv("AUTH_SLACK_ID"),
//		ClientSecret: os.Getenv("AUTH_SLACK_SECRET"),
//	})
package slack

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "slack"
	// Name is the display name.
	Name = "Slack"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://slack.com"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Slack provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Slack configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#611f69"})
	c.Checks = []providers.Check{providers.CheckNonce}
	return c
}
