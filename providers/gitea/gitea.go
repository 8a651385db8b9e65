package gitea

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
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
	return providers.OAuthDefaults[profile.Claims](ID, Name, providers.EndpointsUnder(baseURL, AuthorizationPath, TokenPath, UserinfoPath, Scope), MapProfile, providers.Style{Icon: Icon})
}
