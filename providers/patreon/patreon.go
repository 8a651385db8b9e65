// Package patreon is the built-in Patreon provider (OAuth 2.0): its
// endpoints, the JSON:API user record of its current_user endpoint, and
// the mapping of that record to a user.
//
//	p := patreon.New(providers.OAuthUserConfig[patreon.Profile]{
//		ClientID:     os.Getenv("AUTH_PATREON_ID"),
//		ClientSecret: os.Getenv("AUTH_PATREON_SECRET"),
//	})
package patreon

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "patreon"
	// Name is the display name.
	Name = "Patreon"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.patreon.com/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://www.patreon.com/api/oauth2/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://www.patreon.com/api/oauth2/api/current_user"
	// Scope asks for the user's identity and e-mail address.
	Scope = "identity identity[email]"
)

// Profile is the JSON:API document current_user answers.
type Profile struct {
	// Data is the user resource.
	Data User `json:"data"`
}

// User is a Patreon user resource.
type User struct {
	// ID is the user's id (a string of digits).
	ID string `json:"id"`
	// Type is "user".
	Type string `json:"type"`
	// Attributes are the user's fields.
	Attributes Attributes `json:"attributes"`
}

// Attributes are a Patreon user's fields.
type Attributes struct {
	// FullName is the user's name.
	FullName string `json:"full_name"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Vanity is the user's vanity name, if any.
	Vanity string `json:"vanity,omitempty"`
	// Email is the user's e-mail address (needs identity[email]).
	Email string `json:"email,omitempty"`
	// IsEmailVerified is Patreon's flag for a verified address.
	IsEmailVerified bool `json:"is_email_verified,omitempty"`
	// ImageURL is the user's avatar.
	ImageURL string `json:"image_url"`
	// ThumbURL is a small version of the avatar.
	ThumbURL string `json:"thumb_url,omitempty"`
	// URL is the user's Patreon page.
	URL string `json:"url,omitempty"`
	// Created is when the account was created (RFC 3339).
	Created string `json:"created,omitempty"`
}

// New returns the Patreon provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Patreon configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#e85b46"})
}

// MapProfile maps a Patreon user to a user: id ← data.id, name ←
// data.attributes.full_name, email ← data.attributes.email, image ←
// data.attributes.image_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	a := p.Data.Attributes
	return profile.User{ID: p.Data.ID, Name: a.FullName, Email: a.Email, Image: a.ImageURL}, nil
}
