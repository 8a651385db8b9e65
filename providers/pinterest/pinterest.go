// Package pinterest is the built-in Pinterest provider (OAuth 2.0, API
// v5): its endpoints, the user account record, and the mapping of that
// record to a user.
//
// Auth.js uses the username as the user's id. A username can be changed,
// which would make a returning user a stranger, so here the id is the
// account's id, which API v5 answers; the username is the id only when no
// id is given.
//
//	p := pinterest.New(providers.OAuthUserConfig[pinterest.Profile]{
//		ClientID:     os.Getenv("AUTH_PINTEREST_ID"),
//		ClientSecret: os.Getenv("AUTH_PINTEREST_SECRET"),
//	})
package pinterest

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "pinterest"
	// Name is the display name.
	Name = "Pinterest"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.pinterest.com/oauth"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.pinterest.com/v5/oauth/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.pinterest.com/v5/user_account"
	// Scope lets the token read the user account.
	Scope = "user_accounts:read"
)

// Profile is the answer of GET /v5/user_account.
type Profile struct {
	// ID is the account's id.
	ID string `json:"id,omitempty"`
	// AccountType is "PINNER" or "BUSINESS".
	AccountType string `json:"account_type"`
	// ProfileImage is the URL of the account's picture.
	ProfileImage string `json:"profile_image"`
	// WebsiteURL is the account's web site.
	WebsiteURL string `json:"website_url"`
	// Username is the account's user name.
	Username string `json:"username"`
	// About is the account's description.
	About string `json:"about,omitempty"`
	// BusinessName is the name of a business account.
	BusinessName string `json:"business_name,omitempty"`
	// BoardCount is the number of boards.
	BoardCount int64 `json:"board_count,omitempty"`
	// PinCount is the number of pins.
	PinCount int64 `json:"pin_count,omitempty"`
	// FollowerCount is the number of followers.
	FollowerCount int64 `json:"follower_count,omitempty"`
	// FollowingCount is the number of accounts followed.
	FollowingCount int64 `json:"following_count,omitempty"`
	// MonthlyViews is the number of monthly views.
	MonthlyViews int64 `json:"monthly_views,omitempty"`
}

// New returns the Pinterest provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Pinterest configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#bd081c"})
}

// MapProfile maps a Pinterest account to a user: id ← id, else username;
// name ← username; no e-mail (Pinterest does not give it); image ←
// profile_image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.ID
	if id == "" {
		id = p.Username
	}
	return profile.User{ID: id, Name: p.Username, Image: p.ProfileImage}, nil
}
