// Package box is the built-in Box provider (OAuth 2.0).
//
//	p := box.New(providers.OAuthUserConfig[box.Profile]{
//		ClientID:     os.Getenv("AUTH_BOX_ID"),
//		ClientSecret: os.Getenv("AUTH_BOX_SECRET"),
//	})
//
// The configuration sets no scope: a Box app's scopes are chosen in the
// Box developer console, and the authorization request needs none. (Auth.js
// adds its generic default, "openid profile email", which Box ignores.)
package box

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "box"
	// Name is the display name.
	Name = "Box"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://account.box.com/api/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.box.com/oauth2/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.box.com/2.0/users/me"
)

// Profile is the answer of GET /2.0/users/me (a Box user object).
type Profile struct {
	// ID is the user's Box id (digits, as a string).
	ID string `json:"id"`
	// Type is "user".
	Type string `json:"type,omitempty"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Login is the user's primary e-mail address.
	Login string `json:"login,omitempty"`
	// CreatedAt is when the user was created (ISO 8601).
	CreatedAt string `json:"created_at,omitempty"`
	// ModifiedAt is when the user was last modified (ISO 8601).
	ModifiedAt string `json:"modified_at,omitempty"`
	// Language is the user's language (ISO 639-1).
	Language string `json:"language,omitempty"`
	// Timezone is the user's time zone, e.g. "Africa/Bujumbura".
	Timezone string `json:"timezone,omitempty"`
	// SpaceAmount is the user's storage quota in bytes.
	SpaceAmount int64 `json:"space_amount,omitempty"`
	// SpaceUsed is the storage the user uses, in bytes.
	SpaceUsed int64 `json:"space_used,omitempty"`
	// MaxUploadSize is the largest file the user may upload, in bytes.
	MaxUploadSize int64 `json:"max_upload_size,omitempty"`
	// Status is active, inactive, cannot_delete_edit or
	// cannot_delete_edit_upload.
	Status string `json:"status,omitempty"`
	// JobTitle is the user's job title.
	JobTitle string `json:"job_title,omitempty"`
	// Phone is the user's phone number.
	Phone string `json:"phone,omitempty"`
	// Address is the user's address.
	Address string `json:"address,omitempty"`
	// AvatarURL is the URL of the user's avatar.
	AvatarURL string `json:"avatar_url,omitempty"`
}

// New returns the Box provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Box configuration before any user option: the
// endpoints (no scope), the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{BrandColor: "#0075C9"})
}

// MapProfile maps a Box user to a user: id ← id, name ← name, email ←
// login, image ← avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: p.Name, Email: p.Login, Image: p.AvatarURL}, ID, "profile has no id")
}
