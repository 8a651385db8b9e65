// Package netlify is the built-in Netlify provider (OAuth 2.0): its
// endpoints, the record its user endpoint answers, and the mapping of that
// record to a user.
//
//	p := netlify.New(providers.OAuthUserConfig[netlify.Profile]{
//		ClientID:     os.Getenv("AUTH_NETLIFY_ID"),
//		ClientSecret: os.Getenv("AUTH_NETLIFY_SECRET"),
//	})
package netlify

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "netlify"
	// Name is the display name.
	Name = "Netlify"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://app.netlify.com/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.netlify.com/oauth/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.netlify.com/api/v1/user"
)

// Profile is the answer of GET /api/v1/user.
type Profile struct {
	// ID is the user's unique id.
	ID string `json:"id"`
	// UID is the user's id in Netlify's older numbering, if any.
	UID string `json:"uid,omitempty"`
	// FullName is the user's name.
	FullName string `json:"full_name"`
	// AvatarURL is the user's avatar.
	AvatarURL string `json:"avatar_url"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// AffiliateID is the user's affiliate id.
	AffiliateID string `json:"affiliate_id,omitempty"`
	// SiteCount is the number of sites the user owns.
	SiteCount int64 `json:"site_count"`
	// CreatedAt is when the account was created (RFC 3339).
	CreatedAt string `json:"created_at"`
	// LastLogin is the user's last sign-in (RFC 3339).
	LastLogin string `json:"last_login"`
	// LoginProviders are the ways the user can sign in, e.g. "github".
	LoginProviders []string `json:"login_providers"`
}

// New returns the Netlify provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Netlify configuration before any user option. The
// scope parameter is sent empty: Netlify has no scopes.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, ""), MapProfile, providers.Style{BrandColor: "#32e6e2"})
}

// MapProfile maps a Netlify profile to a user: id ← id, name ← full_name,
// email ← email, image ← avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID, Name: p.FullName, Email: p.Email, Image: p.AvatarURL}, nil
}
