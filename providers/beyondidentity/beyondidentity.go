// Package beyondidentity is the built-in Beyond Identity provider (OpenID
// Connect, passwordless). The issuer is the application's Beyond Identity
// realm application, supplied by the application; the endpoints come from
// discovery.
//
//	p := beyondidentity.New(providers.OIDCUserConfig[beyondidentity.Profile]{
//		ClientID:     os.Getenv("AUTH_BEYONDIDENTITY_ID"),
//		ClientSecret: os.Getenv("AUTH_BEYONDIDENTITY_SECRET"),
//		Issuer:       os.Getenv("AUTH_BEYONDIDENTITY_ISSUER"),
//	})
package beyondidentity

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "beyondidentity"
	// Name is the display name.
	Name = "Beyond Identity"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the claims Beyond Identity returns about the user.
type Profile struct {
	// Sub is the user's id.
	Sub string `json:"sub"`
	// Name is the user's display name.
	Name string `json:"name,omitempty"`
	// PreferredUsername is the user's username.
	PreferredUsername string `json:"preferred_username,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
}

// New returns the Beyond Identity provider configuration with opts laid
// over its defaults by providers.Merge. opts.Issuer is required: without
// it the configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope,
// the default checks, MapProfile and the button style.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{BrandColor: "#5077c5"}, MapProfile)
}

// MapProfile maps Beyond Identity claims to a user: id ← sub, name ←
// name, email ← email, no image. (Auth.js also passes preferred_username
// on; a User has no such field, so it stays in the Profile.)
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.Sub, Name: p.Name, Email: p.Email}, ID, "claims have no sub")
}
