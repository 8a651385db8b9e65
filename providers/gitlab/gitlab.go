// Package gitlab is the built-in GitLab provider (OAuth 2.0), for
// GitLab.com or a self-managed instance. The instance is named by its
// base URL, given as the Issuer option (AUTH_GITLAB_ISSUER); without one
// it is GitLab.com. GitLab's OpenID Connect issuer is that same base URL.
//
//	p := gitlab.New(providers.OAuthUserConfig[gitlab.Profile]{
//		ClientID:     os.Getenv("AUTH_GITLAB_ID"),
//		ClientSecret: os.Getenv("AUTH_GITLAB_SECRET"),
//		Issuer:       "https://gitlab.example.com", // omit for GitLab.com
//	})
package gitlab

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the base URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "gitlab"
	// Name is the display name.
	Name = "GitLab"
	// DefaultBaseURL is GitLab.com.
	DefaultBaseURL = "https://gitlab.com"
	// AuthorizationPath is where the user signs in and consents.
	AuthorizationPath = "/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/oauth/token"
	// UserinfoPath answers the Profile as JSON to a Bearer GET.
	UserinfoPath = "/api/v4/user"
	// Scope lets the token read the user's profile.
	Scope = "read_user"
)

// Profile is the answer of GET /api/v4/user (the signed-in user).
type Profile struct {
	// ID is the user's numeric id on the instance.
	ID int64 `json:"id"`
	// Sub is the OpenID Connect subject. /api/v4/user has none; it is set
	// when an application points Userinfo at GitLab's /oauth/userinfo, and
	// then takes precedence over ID.
	Sub string `json:"sub,omitempty"`
	// Username is the user's GitLab username.
	Username string `json:"username"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// Email is the user's primary address.
	Email string `json:"email,omitempty"`
	// PublicEmail is the address shown on the profile, if any.
	PublicEmail string `json:"public_email,omitempty"`
	// CommitEmail is the address used for web commits.
	CommitEmail string `json:"commit_email,omitempty"`
	// State is "active", "blocked", …
	State string `json:"state,omitempty"`
	// Locked is true when the account is locked.
	Locked bool `json:"locked,omitempty"`
	// AvatarURL is the URL of the user's avatar.
	AvatarURL string `json:"avatar_url,omitempty"`
	// WebURL is the user's profile page.
	WebURL string `json:"web_url,omitempty"`
	// CreatedAt is when the account was created (ISO 8601).
	CreatedAt string `json:"created_at,omitempty"`
	// ConfirmedAt is when the user confirmed their address.
	ConfirmedAt string `json:"confirmed_at,omitempty"`
	// Bio is the user's biography.
	Bio string `json:"bio,omitempty"`
	// Location is where the user says they are.
	Location string `json:"location,omitempty"`
	// Organization is the user's organization.
	Organization string `json:"organization,omitempty"`
	// JobTitle is the user's job title.
	JobTitle string `json:"job_title,omitempty"`
	// Bot is true for bot users.
	Bot bool `json:"bot,omitempty"`
	// IsAdmin is true for instance administrators (visible to admins only).
	IsAdmin bool `json:"is_admin,omitempty"`
	// TwoFactorEnabled is true when the user has two-factor authentication.
	TwoFactorEnabled bool `json:"two_factor_enabled,omitempty"`
	// External is true for external users.
	External bool `json:"external,omitempty"`
	// PrivateProfile is true when the profile is private.
	PrivateProfile bool `json:"private_profile,omitempty"`
}

// New returns the GitLab provider configuration for the instance at
// opts.Issuer (GitLab.com when empty), with opts laid over its defaults by
// providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the instance at baseURL
// (DefaultBaseURL when empty; a trailing slash is allowed): the endpoints
// under it, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults(baseURL string) providers.OAuthConfig[Profile] {
	base := cmp.Or(strings.TrimRight(baseURL, "/"), DefaultBaseURL)
	return providers.OAuthDefaults(ID, Name, providers.EndpointsUnder(base, AuthorizationPath, TokenPath, UserinfoPath, Scope), MapProfile, providers.Style{BrandColor: "#FC6D26"})
}

// MapProfile maps a GitLab user to a user: id ← sub, else id (as a
// string), name ← name, else username, email ← email, image ← avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.Sub
	if id == "" && p.ID != 0 {
		id = strconv.FormatInt(p.ID, 10)
	}
	if id == "" {
		return profile.User{}, errors.New("gitlab: profile has no id")
	}
	u := profile.User{ID: id, Name: p.Name, Email: p.Email, Image: p.AvatarURL}
	if u.Name == "" {
		u.Name = p.Username
	}
	return u, nil
}
