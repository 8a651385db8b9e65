// Package coinbase is the built-in Coinbase provider (OAuth 2.0, Sign in
// with Coinbase).
//
//	p := coinbase.New(providers.OAuthUserConfig[coinbase.Profile]{
//		ClientID:     os.Getenv("AUTH_COINBASE_ID"),
//		ClientSecret: os.Getenv("AUTH_COINBASE_SECRET"),
//	})
package coinbase

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "coinbase"
	// Name is the display name.
	Name = "Coinbase"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://login.coinbase.com/oauth2/auth"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://login.coinbase.com/oauth2/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.coinbase.com/v2/user"
	// Scope lets the token read the user and their e-mail address.
	Scope = "wallet:user:email wallet:user:read"
)

// Profile is the answer of GET /v2/user.
type Profile struct {
	// Data is the current user.
	Data User `json:"data"`
}

// User is a Coinbase user.
type User struct {
	// ID is the user's id (a UUID).
	ID string `json:"id"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Username is the user's public username, if any.
	Username string `json:"username,omitempty"`
	// ProfileLocation is the location the user shows publicly.
	ProfileLocation string `json:"profile_location,omitempty"`
	// ProfileBio is the user's public biography.
	ProfileBio string `json:"profile_bio,omitempty"`
	// ProfileURL is the user's public profile page.
	ProfileURL string `json:"profile_url,omitempty"`
	// AvatarURL is the URL of the user's avatar.
	AvatarURL string `json:"avatar_url,omitempty"`
	// Resource is "user".
	Resource string `json:"resource,omitempty"`
	// ResourcePath is the user's API path, "/v2/user".
	ResourcePath string `json:"resource_path,omitempty"`
	// Email is the user's address (wallet:user:email scope).
	Email string `json:"email,omitempty"`
	// TimeZone is the user's time zone.
	TimeZone string `json:"time_zone,omitempty"`
	// NativeCurrency is the user's currency, e.g. "USD".
	NativeCurrency string `json:"native_currency,omitempty"`
	// Country is the user's country.
	Country *Country `json:"country,omitempty"`
	// CreatedAt is when the account was created (RFC 3339).
	CreatedAt string `json:"created_at,omitempty"`
}

// Country is a Coinbase user's country.
type Country struct {
	// Code is the ISO 3166-1 alpha-2 code.
	Code string `json:"code"`
	// Name is the country's name.
	Name string `json:"name"`
}

// New returns the Coinbase provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Coinbase configuration before any user option: the
// endpoints, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#0052ff"})
}

// MapProfile maps a Coinbase user to a user: id ← data.id, name ←
// data.name, email ← data.email, image ← data.avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.Data.ID, Name: p.Data.Name, Email: p.Data.Email, Image: p.Data.AvatarURL}, ID, "profile has no data.id")
}
