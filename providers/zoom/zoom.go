// Package zoom is the built-in Zoom provider (OAuth 2.0): its endpoints,
// the user record of Zoom's API, and the mapping of that record to a user.
//
//	p := zoom.New(providers.OAuthUserConfig[zoom.Profile]{
//		ClientID:     os.Getenv("AUTH_ZOOM_ID"),
//		ClientSecret: os.Getenv("AUTH_ZOOM_SECRET"),
//	})
package zoom

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "zoom"
	// Name is the display name.
	Name = "Zoom"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://zoom.us/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://zoom.us/oauth/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.zoom.us/v2/users/me"
)

// Profile is the answer of GET /v2/users/me.
type Profile struct {
	// ID is the user's id.
	ID string `json:"id"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name"`
	// LastName is the user's last name.
	LastName string `json:"last_name"`
	// DisplayName is the user's display name.
	DisplayName string `json:"display_name,omitempty"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// Type is the license type: 1 basic, 2 licensed, …
	Type int `json:"type"`
	// RoleName is the user's role, e.g. "Owner".
	RoleName string `json:"role_name,omitempty"`
	// PMI is the user's personal meeting id.
	PMI int64 `json:"pmi,omitempty"`
	// Timezone is the user's IANA time zone.
	Timezone string `json:"timezone,omitempty"`
	// Verified is 1 when the user's address is verified.
	Verified int `json:"verified"`
	// Dept is the user's department.
	Dept string `json:"dept,omitempty"`
	// PicURL is the user's picture.
	PicURL string `json:"pic_url,omitempty"`
	// AccountID is the Zoom account the user belongs to.
	AccountID string `json:"account_id"`
	// Language is the user's language, e.g. "en-US".
	Language string `json:"language,omitempty"`
	// Status is "active", "inactive" or "pending".
	Status string `json:"status,omitempty"`
}

// New returns the Zoom provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Zoom configuration before any user option. The
// scope parameter is sent empty: a Zoom app's scopes are set in its
// Marketplace configuration.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, ""), MapProfile, providers.Style{BrandColor: "#0b5cff"})
}

// MapProfile maps a Zoom user to a user: id ← id, name ← "first_name
// last_name", email ← email, image ← pic_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{
		ID:    p.ID,
		Name:  profile.FullName(p.FirstName, p.LastName),
		Email: p.Email,
		Image: p.PicURL,
	}, nil
}
