// Package gitea is the built-in Gitea provider: OAuth 2.0 against a Gitea
// instance, https://gitea.com by default. The userinfo endpoint is Gitea's
// OpenID Connect one, so the profile is a set of OIDC claims (sub, name,
// preferred_username, email, email_verified, picture, groups) mapped by
// profile.FromClaims.
//
// For a self-hosted instance use NewAt, or set Issuer (AUTH_GITEA_ISSUER
// for builtin.FromEnv) to the instance's base URL: New derives the
// endpoints from it.
package gitea

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID   = "gitea"
	Name = "Gitea"
	// BaseURL is the default instance.
	BaseURL = "https://gitea.com"
	// The endpoints' paths below an instance's base URL.
	AuthorizationPath = "/login/oauth/authorize"
	TokenPath         = "/login/oauth/access_token"
	UserinfoPath      = "/login/oauth/userinfo"
	// Scope asks for the OIDC claims the userinfo endpoint answers.
	Scope = "openid profile email"
)

// New returns the configuration for the instance at opts.Issuer, or at
// BaseURL when that is empty, with opts laid over it by providers.Merge.
func New(opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	base := opts.Issuer
	if base == "" {
		base = BaseURL
	}
	return NewAt(base, opts)
}

// NewAt returns the configuration for the instance at baseURL (e.g.
// "https://git.example.com", or with a sub-path when Gitea is served under
// one), with opts laid over it by providers.Merge.
func NewAt(baseURL string, opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	return providers.Merge(Defaults(baseURL), opts)
}

// Defaults returns the configuration of the instance at baseURL before any
// user option.
func Defaults(baseURL string) providers.OAuthConfig[profile.Claims] {
	return providers.OAuthDefaults[profile.Claims](ID, Name, providers.EndpointsUnder(baseURL, AuthorizationPath, TokenPath, UserinfoPath, Scope), nil, providers.Style{})
}
