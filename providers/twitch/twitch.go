// Package twitch is the built-in Twitch provider (OpenID Connect). The
// authorization request asks, through the claims parameter, for the
// e-mail address, picture and preferred_username in the ID token; the
// default OpenID Connect mapping then takes the name from
// preferred_username (Twitch sends no name claim).
//
// Twitch's token endpoint wants the client credentials in the form
// (client_secret_post). Auth.js also rewrites Twitch's token answers: it
// joins a scope array into a string and renames the members of error
// bodies. The first is not needed here, as account.TokenSet ignores a
// scope that is not a string; the second is the flow's business, since
// Twitch answers errors with {status, message} instead of RFC 6749's
// {error, error_description}.
//
//	p := twitch.New(providers.OIDCUserConfig[twitch.Profile]{
//		ClientID:     os.Getenv("AUTH_TWITCH_ID"),
//		ClientSecret: os.Getenv("AUTH_TWITCH_SECRET"),
//	})
package twitch

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "twitch"
	// Name is the display name.
	Name = "Twitch"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://id.twitch.tv/oauth2"
	// Scope asks for an ID token and the user's e-mail address.
	Scope = "openid user:read:email"
	// Claims is the claims request parameter (OpenID Connect Core §5.5):
	// the ID token claims to include.
	Claims = `{"id_token":{"email":null,"picture":null,"preferred_username":null}}`
)

// Profile is the ID token's claims: sub, preferred_username, email,
// email_verified and picture.
type Profile = profile.Claims

// New returns the Twitch provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Twitch configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#65459B"})
	c.Authorization.Params["claims"] = Claims
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}
