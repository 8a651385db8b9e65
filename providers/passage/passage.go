// Package passage is the built-in Passage by 1Password provider (OpenID
// Connect). The endpoints come from discovery of the issuer the
// application supplies (AUTH_PASSAGE_ISSUER), e.g.
// https://auth.passage.id/v1/apps/<app-id>. The client authenticates to
// the token endpoint with HTTP Basic (client_secret_basic), which the
// configuration states explicitly, as Auth.js's does. The ID token's
// claims go through the default OpenID Connect mapping.
//
//	p := passage.New(providers.OIDCUserConfig[passage.Profile]{
//		ClientID:     os.Getenv("AUTH_PASSAGE_ID"),
//		ClientSecret: os.Getenv("AUTH_PASSAGE_SECRET"),
//		Issuer:       os.Getenv("AUTH_PASSAGE_ISSUER"),
//	})
package passage

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "passage"
	// Name is the display name.
	Name = "Passage"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Passage provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Passage configuration before any user option: the
// scope, the default checks (pkce, state, nonce) and the button style. It
// has no issuer; the endpoints come from the issuer's discovery document.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#3d53f6"})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretBasic}
	return c
}
