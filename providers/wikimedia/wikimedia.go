// Package wikimedia is the built-in Wikimedia provider (OAuth 2.0 on
// meta.wikimedia.org, for Wikipedia and its sister projects): its
// endpoints, the profile record, and the mapping of that record to a user.
//
//	p := wikimedia.New(providers.OAuthUserConfig[wikimedia.Profile]{
//		ClientID:     os.Getenv("AUTH_WIKIMEDIA_ID"),
//		ClientSecret: os.Getenv("AUTH_WIKIMEDIA_SECRET"),
//	})
package wikimedia

import (
	"context"
	"encoding/json"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "wikimedia"
	// Name is the display name.
	Name = "Wikimedia"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://meta.wikimedia.org/w/rest.php/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://meta.wikimedia.org/w/rest.php/oauth2/access_token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile"
)

// Profile is the answer of the oauth2/resource/profile endpoint.
type Profile struct {
	// Sub is the user's central (global) account id.
	Sub json.Number `json:"sub"`
	// Username is the user's name.
	Username string `json:"username"`
	// EditCount is the user's number of edits.
	EditCount int64 `json:"editcount"`
	// ConfirmedEmail is true when the user's address is confirmed.
	ConfirmedEmail bool `json:"confirmed_email"`
	// Blocked is true when the user is blocked.
	Blocked bool `json:"blocked"`
	// Registered is the registration time, YYYYMMDDHHMMSS.
	Registered string `json:"registered"`
	// Groups are the user's groups, e.g. "*", "user", "autoconfirmed".
	Groups []string `json:"groups"`
	// Rights are the user's rights.
	Rights []string `json:"rights"`
	// RealName is the user's real name, when the client may see it.
	RealName string `json:"realname,omitempty"`
	// Email is the user's address, when the client may see it.
	Email string `json:"email,omitempty"`
}

// New returns the Wikimedia provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Wikimedia configuration before any user option. The
// scope parameter is sent empty: a Wikimedia OAuth consumer's grants are
// fixed when it is registered.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, ""), MapProfile, providers.Style{BrandColor: "#000"})
}

// MapProfile maps a Wikimedia profile to a user: id ← sub, name ←
// username, email ← email, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.Sub.String(), Name: p.Username, Email: p.Email}, nil
}
