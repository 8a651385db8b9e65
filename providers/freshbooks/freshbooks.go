// Package freshbooks is the built-in FreshBooks provider (OAuth 2.0).
//
//	p := freshbooks.New(providers.OAuthUserConfig[freshbooks.Profile]{
//		ClientID:     os.Getenv("AUTH_FRESHBOOKS_ID"),
//		ClientSecret: os.Getenv("AUTH_FRESHBOOKS_SECRET"),
//	})
package freshbooks

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "freshbooks"
	// Name is the display name.
	Name = "Freshbooks"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://auth.freshbooks.com/service/auth/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.freshbooks.com/auth/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.freshbooks.com/auth/api/v1/users/me"
)

// Profile is the answer of GET /auth/api/v1/users/me.
type Profile struct {
	// Response is the current user (the identity).
	Response User `json:"response"`
}

// User is a FreshBooks identity.
type User struct {
	// ID is the identity's numeric id.
	ID int64 `json:"id"`
	// IdentityID is the same id, under its other name.
	IdentityID int64 `json:"identity_id,omitempty"`
	// IdentityUUID is the identity's UUID.
	IdentityUUID string `json:"identity_uuid,omitempty"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Language is the user's language, e.g. "en".
	Language string `json:"language,omitempty"`
	// ConfirmedAt is when the user confirmed their address.
	ConfirmedAt string `json:"confirmed_at,omitempty"`
	// CreatedAt is when the identity was created.
	CreatedAt string `json:"created_at,omitempty"`
	// SetupComplete is true once the user finished onboarding.
	SetupComplete bool `json:"setup_complete,omitempty"`
}

// New returns the FreshBooks provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the FreshBooks configuration before any user option:
// the endpoints (the scopes are chosen with the app), the default checks
// (pkce), MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{BrandColor: "#0075dd"})
}

// MapProfile maps a FreshBooks identity to a user: id ← response.id (as a
// string), name ← "first_name last_name", email ← response.email, no
// image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	r := p.Response
	return providers.RequireID(profile.User{
		ID:    providers.FormatID(r.ID),
		Name:  profile.FullName(r.FirstName, r.LastName),
		Email: r.Email,
	}, ID, "profile has no response.id")
}
