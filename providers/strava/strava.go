// Package strava is the built-in Strava provider (OAuth 2.0): its
// endpoints, the athlete record, and the mapping of that record to a user.
//
//	p := strava.New(providers.OAuthUserConfig[strava.Profile]{
//		ClientID:     os.Getenv("AUTH_STRAVA_ID"),
//		ClientSecret: os.Getenv("AUTH_STRAVA_SECRET"),
//	})
package strava

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "strava"
	// Name is the display name.
	Name = "Strava"
	// AuthorizationURL is where the athlete signs in and consents.
	AuthorizationURL = "https://www.strava.com/api/v3/oauth/authorize"
	// TokenURL exchanges the code for tokens, with the client credentials
	// in the form (client_secret_post).
	TokenURL = "https://www.strava.com/api/v3/oauth/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://www.strava.com/api/v3/athlete"
	// Scope lets the token read public data.
	Scope = "read"
)

// Profile is the athlete record of GET /api/v3/athlete. The token
// response also carries a summary of it, as athlete.
type Profile struct {
	// ID is the athlete's numeric id.
	ID int64 `json:"id"`
	// Username is the athlete's user name, if set.
	Username string `json:"username"`
	// Firstname is the athlete's first name.
	Firstname string `json:"firstname"`
	// Lastname is the athlete's last name.
	Lastname string `json:"lastname"`
	// Bio is the athlete's description.
	Bio string `json:"bio,omitempty"`
	// City is the athlete's city.
	City string `json:"city,omitempty"`
	// State is the athlete's state or region.
	State string `json:"state,omitempty"`
	// Country is the athlete's country.
	Country string `json:"country,omitempty"`
	// Sex is "M", "F" or empty.
	Sex string `json:"sex,omitempty"`
	// Premium is true for a subscriber.
	Premium bool `json:"premium"`
	// Summit is true for a subscriber (Strava's newer name).
	Summit bool `json:"summit"`
	// CreatedAt is when the account was created (RFC 3339).
	CreatedAt string `json:"created_at"`
	// UpdatedAt is the account's last change (RFC 3339).
	UpdatedAt string `json:"updated_at"`
	// ProfileMedium is the 62×62 picture.
	ProfileMedium string `json:"profile_medium"`
	// Profile is the 124×124 picture.
	Profile string `json:"profile"`
}

// New returns the Strava provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Strava configuration before any user option:
// besides the scope, approval_prompt=auto (no consent screen for an
// athlete who has already consented) and response_type=code.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"scope": Scope, "approval_prompt": "auto", "response_type": "code"},
	}, MapProfile, providers.Style{})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a Strava athlete to a user: id ← id (a number, as a
// string), name ← "firstname lastname", no e-mail (Strava does not give
// it), image ← profile. A profile without an id is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: profile.FullName(p.Firstname, p.Lastname), Image: p.Profile}, ID, "profile has no id")
}
