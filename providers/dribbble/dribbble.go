// Package dribbble is the built-in Dribbble provider (OAuth 2.0).
//
//	p := dribbble.New(providers.OAuthUserConfig[dribbble.Profile]{
//		ClientID:     os.Getenv("AUTH_DRIBBBLE_ID"),
//		ClientSecret: os.Getenv("AUTH_DRIBBBLE_SECRET"),
//	})
//
// The scope is "public"; an application that uploads shots sets
// Authorization.Params["scope"] to ScopeUpload. (Auth.js takes the scope
// as a factory option with no default, and sends scope=undefined without
// it.)
package dribbble

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "dribbble"
	// Name is the display name.
	Name = "Dribbble"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://dribbble.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://dribbble.com/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.dribbble.com/v2/user"
	// Scope lets the token read the user's public data.
	Scope = "public"
	// ScopeUpload also lets it upload and update shots.
	ScopeUpload = "public upload"
)

// Profile is the answer of GET /v2/user.
type Profile struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Login is the user's Dribbble username.
	Login string `json:"login,omitempty"`
	// HTMLURL is the user's profile page.
	HTMLURL string `json:"html_url,omitempty"`
	// AvatarURL is the URL of the user's avatar.
	AvatarURL string `json:"avatar_url,omitempty"`
	// Bio is the user's biography, as HTML.
	Bio string `json:"bio,omitempty"`
	// Location is where the user says they are.
	Location string `json:"location,omitempty"`
	// Links are the user's web and social links, by kind.
	Links map[string]string `json:"links,omitempty"`
	// CanUploadShot is true when the user may upload shots.
	CanUploadShot bool `json:"can_upload_shot,omitempty"`
	// Pro is true for Dribbble Pro members.
	Pro bool `json:"pro,omitempty"`
	// FollowersCount is the number of followers.
	FollowersCount int64 `json:"followers_count,omitempty"`
	// CreatedAt is when the account was created (ISO 8601).
	CreatedAt string `json:"created_at,omitempty"`
	// Type is "Player" or "Team".
	Type string `json:"type,omitempty"`
	// Email is the user's address. Dribbble's documented answer has none;
	// the field is kept for the mapping Auth.js defines.
	Email string `json:"email,omitempty"`
}

// New returns the Dribbble provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Dribbble configuration before any user option: the
// endpoints, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#000"})
}

// MapProfile maps a Dribbble user to a user: id ← id (as a string), name ←
// name, email ← email, image ← avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: p.Name, Email: p.Email, Image: p.AvatarURL}, ID, "profile has no id")
}
