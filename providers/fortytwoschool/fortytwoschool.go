// Package fortytwoschool is the built-in 42 School provider (OAuth 2.0,
// the 42 intranet API): its endpoints, its profile record and the mapping
// of that profile to a user.
//
//	p := fortytwoschool.New(providers.OAuthUserConfig[fortytwoschool.Profile]{
//		ClientID:     os.Getenv("AUTH_42_SCHOOL_ID"),
//		ClientSecret: os.Getenv("AUTH_42_SCHOOL_SECRET"),
//	})
package fortytwoschool

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "42-school"
	// Name is the display name.
	Name = "42 School"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://api.intra.42.fr/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.intra.42.fr/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.intra.42.fr/v2/me"
	// Scope asks for read access to the user's public data.
	Scope = "public"
)

// Profile is the answer of GET /v2/me: the 42 intranet user, with the
// members the mapping and most applications use.
type Profile struct {
	// ID is the user's numeric id at 42.
	ID int64 `json:"id"`
	// Email is the user's 42 e-mail address.
	Email string `json:"email"`
	// Login is the user's 42 login.
	Login string `json:"login"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name"`
	// LastName is the user's last name.
	LastName string `json:"last_name"`
	// UsualFullName is the full name the user goes by.
	UsualFullName string `json:"usual_full_name"`
	// UsualFirstName is the first name the user goes by, if set.
	UsualFirstName string `json:"usual_first_name,omitempty"`
	// URL is the user's API URL.
	URL string `json:"url"`
	// Phone is the user's phone number, or "hidden".
	Phone string `json:"phone,omitempty"`
	// Displayname is the name the intranet shows.
	Displayname string `json:"displayname"`
	// Kind is the kind of account, e.g. "student".
	Kind string `json:"kind,omitempty"`
	// Image is the user's picture, in several sizes.
	Image Image `json:"image"`
	// Staff is true for 42 staff.
	Staff bool `json:"staff?"`
	// PoolMonth is the month of the user's piscine, e.g. "september".
	PoolMonth string `json:"pool_month,omitempty"`
	// PoolYear is the year of the user's piscine, e.g. "2021".
	PoolYear string `json:"pool_year,omitempty"`
	// Location is the workstation the user is logged in at, if any.
	Location string `json:"location,omitempty"`
	// Wallet is the user's wallet balance.
	Wallet int64 `json:"wallet"`
	// CorrectionPoint is the user's evaluation points.
	CorrectionPoint int64 `json:"correction_point"`
}

// Image is a 42 profile picture: the original and its resized versions.
type Image struct {
	// Link is the URL of the original picture.
	Link string `json:"link"`
	// Versions are URLs of the picture in other sizes.
	Versions ImageVersions `json:"versions"`
}

// ImageVersions are a picture's URLs by size.
type ImageVersions struct {
	// Large is the largest resized version.
	Large string `json:"large,omitempty"`
	// Medium is the medium-sized version.
	Medium string `json:"medium,omitempty"`
	// Small is the small version.
	Small string `json:"small,omitempty"`
	// Micro is the thumbnail.
	Micro string `json:"micro,omitempty"`
}

// New returns the 42 School provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the 42 School configuration before any user option:
// the endpoints, the scope, the default checks (pkce) and MapProfile. The
// provider has no button style of its own.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
}

// MapProfile maps a 42 profile to a user: id ← id (as a string), name ←
// usual_full_name, email ← email, image ← image.link. A profile without an
// id is an error: the user could not be told apart from others.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{
		ID:    providers.FormatID(p.ID),
		Name:  p.UsualFullName,
		Email: p.Email,
		Image: p.Image.Link,
	}, ID, "profile has no id")
}
