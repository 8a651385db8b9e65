// Package mastodon is the built-in Mastodon provider (OAuth 2.0). Mastodon
// is self-hosted: the endpoints are those of the instance whose base URL
// is the Issuer option (AUTH_MASTODON_ISSUER), e.g. https://mastodon.social.
//
//	p := mastodon.New(providers.OAuthUserConfig[mastodon.Profile]{
//		ClientID:     os.Getenv("AUTH_MASTODON_ID"),
//		ClientSecret: os.Getenv("AUTH_MASTODON_SECRET"),
//		Issuer:       os.Getenv("AUTH_MASTODON_ISSUER"),
//	})
package mastodon

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the instance's base
// URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "mastodon"
	// Name is the display name.
	Name = "Mastodon"
	// AuthorizationPath is where the user signs in and consents.
	AuthorizationPath = "/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/oauth/token"
	// UserinfoPath answers the Profile to a Bearer GET.
	UserinfoPath = "/api/v1/accounts/verify_credentials"
	// Scope lets the token read the account (verify_credentials needs it).
	Scope = "read"
)

// Profile is the Account entity that verify_credentials answers.
type Profile struct {
	// ID is the account's id on the instance (a string of digits).
	ID string `json:"id"`
	// Username is the account's user name, without the domain.
	Username string `json:"username"`
	// Acct is the webfinger account URI: the user name, with @domain for
	// remote accounts.
	Acct string `json:"acct"`
	// DisplayName is the profile's display name.
	DisplayName string `json:"display_name"`
	// Locked is true when the account approves followers by hand.
	Locked bool `json:"locked"`
	// Bot is true when the account performs automated actions.
	Bot bool `json:"bot"`
	// CreatedAt is when the account was created (RFC 3339).
	CreatedAt string `json:"created_at"`
	// Note is the profile's biography, as HTML.
	Note string `json:"note"`
	// URL is the profile page.
	URL string `json:"url"`
	// Avatar is the avatar's URL; it may be animated.
	Avatar string `json:"avatar"`
	// AvatarStatic is the avatar's URL as a still image.
	AvatarStatic string `json:"avatar_static"`
	// Header is the header image's URL.
	Header string `json:"header"`
	// FollowersCount is the number of followers.
	FollowersCount int64 `json:"followers_count"`
	// FollowingCount is the number of accounts followed.
	FollowingCount int64 `json:"following_count"`
	// StatusesCount is the number of posts.
	StatusesCount int64 `json:"statuses_count"`
}

// New returns the Mastodon provider configuration for the instance at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the instance at issuer, its base
// URL (a trailing slash is allowed). With issuer "" the endpoints are left
// empty, and gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile, providers.Style{})
	c.Authorization.Params = map[string]string{"scope": Scope}
	return c
}

// MapProfile maps a Mastodon account to a user: id ← id, name ← username,
// no e-mail (Mastodon does not disclose it), image ← avatar_static.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID, Name: p.Username, Image: p.AvatarStatic}, nil
}
