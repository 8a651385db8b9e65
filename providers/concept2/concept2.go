// Package concept2 is the built-in Concept2 Logbook provider (OAuth 2.0).
//
//	p := concept2.New(providers.OAuthUserConfig[concept2.Profile]{
//		ClientID:     os.Getenv("AUTH_CONCEPT2_ID"),
//		ClientSecret: os.Getenv("AUTH_CONCEPT2_SECRET"),
//	})
package concept2

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "concept2"
	// Name is the display name.
	Name = "Concept2"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://log.concept2.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://log.concept2.com/oauth/access_token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://log.concept2.com/api/users/me"
	// Scope lets the token read the user and write results. Concept2
	// separates scopes with commas.
	Scope = "user:read,results:write"
)

// Profile is the answer of GET /api/users/me.
type Profile struct {
	// Data is the current user.
	Data User `json:"data"`
}

// User is a Concept2 Logbook user.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Username is the user's Logbook username.
	Username string `json:"username"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Gender is "M" or "F".
	Gender string `json:"gender,omitempty"`
	// DOB is the user's date of birth, YYYY-MM-DD.
	DOB string `json:"dob,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Country is the user's country, as an ISO 3166-1 alpha-3 code.
	Country string `json:"country,omitempty"`
	// ProfileImage is the URL of the user's picture.
	ProfileImage string `json:"profile_image,omitempty"`
	// AgeRestricted is true for users under the age limit.
	AgeRestricted bool `json:"age_restricted,omitempty"`
	// Weight is the user's weight, as the Logbook records it.
	Weight int64 `json:"weight,omitempty"`
	// LogbookPrivacy is who may see the user's logbook, e.g. "partners".
	LogbookPrivacy string `json:"logbook_privacy,omitempty"`
}

// New returns the Concept2 provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Concept2 configuration before any user option: the
// endpoints, the scope, the default checks (pkce) and MapProfile. Concept2
// has no button style of its own.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
}

// MapProfile maps a Concept2 user to a user: id ← data.id (as a string),
// name ← data.username, email ← data.email, image ← data.profile_image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{
		ID:    providers.FormatID(p.Data.ID),
		Name:  p.Data.Username,
		Email: p.Data.Email,
		Image: p.Data.ProfileImage,
	}, ID, "profile has no data.id")
}
