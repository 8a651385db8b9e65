// Package mattermost is the built-in Mattermost provider (OAuth 2.0).
// Mattermost is self-hosted: the endpoints are those of the server whose
// base URL is the Issuer option (AUTH_MATTERMOST_ISSUER), e.g.
// https://chat.example.com.
//
//	p := mattermost.New(providers.OAuthUserConfig[mattermost.Profile]{
//		ClientID:     os.Getenv("AUTH_MATTERMOST_ID"),
//		ClientSecret: os.Getenv("AUTH_MATTERMOST_SECRET"),
//		Issuer:       os.Getenv("AUTH_MATTERMOST_ISSUER"),
//	})
package mattermost

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the server's base
// URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "mattermost"
	// Name is the display name.
	Name = "Mattermost"
	// AuthorizationPath is where the user signs in and consents.
	AuthorizationPath = "/oauth/authorize"
	// TokenPath exchanges the code for tokens, with the client
	// credentials in the form (client_secret_post).
	TokenPath = "/oauth/access_token"
	// UserinfoPath answers the Profile to a Bearer GET.
	UserinfoPath = "/api/v4/users/me"
)

// Profile is the User object of GET /api/v4/users/me.
type Profile struct {
	// ID is the user's id (26 characters).
	ID string `json:"id"`
	// Username is the user's login name.
	Username string `json:"username"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name"`
	// LastName is the user's last name.
	LastName string `json:"last_name"`
	// Nickname is the user's nickname.
	Nickname string `json:"nickname"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// EmailVerified is Mattermost's flag for a verified address.
	EmailVerified bool `json:"email_verified"`
	// AuthService is the sign-in method the user has ("" for e-mail).
	AuthService string `json:"auth_service"`
	// Roles is a space-separated list of the user's roles.
	Roles string `json:"roles"`
	// Locale is the user's locale, e.g. "en".
	Locale string `json:"locale"`
	// Position is the user's job title.
	Position string `json:"position"`
	// CreateAt is the creation time in milliseconds since the epoch.
	CreateAt int64 `json:"create_at"`
	// UpdateAt is the last update in milliseconds since the epoch.
	UpdateAt int64 `json:"update_at"`
	// DeleteAt is the deactivation time, 0 when active.
	DeleteAt int64 `json:"delete_at"`
}

// New returns the Mattermost provider configuration for the server at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the server at issuer, its base
// URL (a trailing slash is allowed). It sets no scope: Mattermost's OAuth
// service has none. With issuer "" the endpoints are left empty, and
// gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile, providers.Style{BrandColor: "#000"})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a Mattermost user to a user: id ← id, name ← username,
// else "first_name last_name", email ← email, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	name := p.Username
	if name == "" {
		name = profile.FullName(p.FirstName, p.LastName)
	}
	return profile.User{ID: p.ID, Name: name, Email: p.Email}, nil
}
