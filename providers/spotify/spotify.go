// Package spotify is the built-in Spotify provider (OAuth 2.0): its
// endpoints, the current user's profile record, and the mapping of that
// record to a user.
//
//	p := spotify.New(providers.OAuthUserConfig[spotify.Profile]{
//		ClientID:     os.Getenv("AUTH_SPOTIFY_ID"),
//		ClientSecret: os.Getenv("AUTH_SPOTIFY_SECRET"),
//	})
package spotify

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "spotify"
	// Name is the display name.
	Name = "Spotify"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://accounts.spotify.com/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://accounts.spotify.com/api/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.spotify.com/v1/me"
	// Scope lets the token read the user's e-mail address.
	Scope = "user-read-email"
)

// Profile is the answer of GET /v1/me.
type Profile struct {
	// ID is the user's Spotify user id.
	ID string `json:"id"`
	// DisplayName is the name shown on the profile; null when unset.
	DisplayName string `json:"display_name"`
	// Email is the e-mail address on the account, which Spotify does not
	// necessarily verify.
	Email string `json:"email"`
	// Images are the profile images, largest first.
	Images []Image `json:"images"`
	// Country is an ISO 3166-1 alpha-2 code (needs user-read-private).
	Country string `json:"country,omitempty"`
	// Product is the subscription level (needs user-read-private).
	Product string `json:"product,omitempty"`
	// URI is the user's Spotify URI.
	URI string `json:"uri"`
	// Href is the Web API endpoint for the user.
	Href string `json:"href"`
}

// Image is one profile image.
type Image struct {
	// URL is the image's address.
	URL string `json:"url"`
	// Height is the height in pixels, if known.
	Height int `json:"height,omitempty"`
	// Width is the width in pixels, if known.
	Width int `json:"width,omitempty"`
}

// New returns the Spotify provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Spotify configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#1db954"})
}

// MapProfile maps a Spotify user to a user: id ← id, name ← display_name,
// email ← email, image ← the first of images, if any.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: p.DisplayName, Email: p.Email}
	if len(p.Images) > 0 {
		u.Image = p.Images[0].URL
	}
	return u, nil
}
