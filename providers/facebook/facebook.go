// Package facebook is the built-in Facebook provider (OAuth 2.0, Facebook
// Login through the Graph API).
//
//	p := facebook.New(providers.OAuthUserConfig[facebook.Profile]{
//		ClientID:     os.Getenv("AUTH_FACEBOOK_ID"),     // the App ID
//		ClientSecret: os.Getenv("AUTH_FACEBOOK_SECRET"), // the App Secret
//	})
package facebook

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "facebook"
	// Name is the display name.
	Name = "Facebook"
	// AuthorizationURL is where the user signs in and consents (Graph API
	// v19.0).
	AuthorizationURL = "https://www.facebook.com/v19.0/dialog/oauth"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://graph.facebook.com/oauth/access_token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET; the fields
	// it returns are named in UserinfoFields.
	UserinfoURL = "https://graph.facebook.com/me"
	// UserinfoFields are the Graph API fields asked of UserinfoURL.
	UserinfoFields = "id,name,email,picture"
	// Scope asks for the user's e-mail address (public_profile is implied).
	Scope = "email"
)

// Profile is the answer of GET /me?fields=id,name,email,picture.
type Profile struct {
	// ID is the user's app-scoped id (digits, as a string).
	ID string `json:"id"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// Email is the user's primary address (email scope); absent when the
	// user has none or declined.
	Email string `json:"email,omitempty"`
	// Picture is the user's profile picture.
	Picture Picture `json:"picture,omitzero"`
}

// Picture is the picture field of a Graph API user.
type Picture struct {
	// Data is the picture itself.
	Data PictureData `json:"data"`
}

// PictureData describes a profile picture.
type PictureData struct {
	// Height is the picture's height in pixels.
	Height int `json:"height,omitempty"`
	// Width is the picture's width in pixels.
	Width int `json:"width,omitempty"`
	// IsSilhouette is true for the default silhouette picture.
	IsSilhouette bool `json:"is_silhouette,omitempty"`
	// URL is where the picture is served.
	URL string `json:"url,omitempty"`
}

// New returns the Facebook provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Facebook configuration before any user option: the
// endpoints, the scope, the userinfo fields, the default checks (pkce),
// MapProfile and the button style. The access token goes in a Bearer
// header, which the Graph API accepts.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#006aff"})
	c.Userinfo.Params = map[string]string{"fields": UserinfoFields}
	return c
}

// MapProfile maps a Facebook user to a user: id ← id, name ← name, email ←
// email, image ← picture.data.url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: p.Name, Email: p.Email, Image: p.Picture.Data.URL}, ID, "profile has no id")
}
