// Package wordpress is the built-in WordPress.com provider (OAuth 2.0):
// its endpoints, the /me record of the WordPress.com REST API, and the
// mapping of that record to a user.
//
//	p := wordpress.New(providers.OAuthUserConfig[wordpress.Profile]{
//		ClientID:     os.Getenv("AUTH_WORDPRESS_ID"),
//		ClientSecret: os.Getenv("AUTH_WORDPRESS_SECRET"),
//	})
package wordpress

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "wordpress"
	// Name is the display name.
	Name = "WordPress.com"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://public-api.wordpress.com/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://public-api.wordpress.com/oauth2/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://public-api.wordpress.com/rest/v1/me"
	// Scope is the authentication-only scope: it reads the user's profile.
	Scope = "auth"
)

// Profile is the answer of GET /rest/v1/me.
type Profile struct {
	// ID is the user's numeric id.
	ID int64 `json:"ID"`
	// DisplayName is the user's display name.
	DisplayName string `json:"display_name"`
	// Username is the user's login.
	Username string `json:"username"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// EmailVerified is WordPress.com's flag for a verified address.
	EmailVerified bool `json:"email_verified"`
	// PrimaryBlog is the id of the user's primary site.
	PrimaryBlog int64 `json:"primary_blog"`
	// Language is the user's language, e.g. "en".
	Language string `json:"language"`
	// AvatarURL is the user's Gravatar.
	AvatarURL string `json:"avatar_URL"`
	// ProfileURL is the user's public profile page.
	ProfileURL string `json:"profile_URL"`
	// SiteCount is the number of sites the user belongs to.
	SiteCount int64 `json:"site_count"`
}

// New returns the WordPress.com provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the WordPress.com configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
}

// MapProfile maps a WordPress.com user to a user: id ← ID (as a string),
// name ← display_name, email ← email, image ← avatar_URL. A profile
// without an ID is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: p.DisplayName, Email: p.Email, Image: p.AvatarURL}, ID, "profile has no ID")
}
