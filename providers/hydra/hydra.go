// Package hydra is the built-in Ory Hydra provider (OpenID Connect); its
// id is hydra (Auth.js's file is named ory-hydra). The endpoints come from
// discovery of the issuer the application supplies (AUTH_HYDRA_ISSUER):
// the public URL of a self-hosted Hydra, or of an Ory Network project,
// e.g. https://<project>.projects.oryapis.com. The ID token's claims go
// through the default OpenID Connect mapping.
//
//	p := hydra.New(providers.OIDCUserConfig[hydra.Profile]{
//		ClientID:     os.Getenv("AUTH_HYDRA_ID"),
//		ClientSecret: os.Getenv("AUTH_HYDRA_SECRET"),
//		Issuer:       os.Getenv("AUTH_HYDRA_ISSUER"),
//	})
package hydra

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "hydra"
	// Name is the display name.
	Name = "Ory Hydra"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims (sub, name, email, picture, …).
type Profile = profile.Claims

// New returns the Ory Hydra provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Ory Hydra configuration before any user option: the
// scope, the default checks (pkce, state, nonce) and the button style. It
// has no issuer; the endpoints come from the issuer's discovery document.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#fff"})
}
