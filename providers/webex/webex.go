package webex

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the Webex provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return NewAPI(APIBaseURL, opts)
}

// NewAPI returns the configuration for the Webex API at apiBaseURL (e.g.
// https://api-usgov.webex.com/v1), with opts laid over it.
func NewAPI(apiBaseURL string, opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(apiBaseURL), opts)
}

// Defaults returns the configuration for the API at apiBaseURL before any
// user option.
func Defaults(apiBaseURL string) providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.EndpointsUnder(apiBaseURL, AuthorizationPath, TokenPath, UserinfoPath, Scope), MapProfile, providers.Style{})
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: p.DisplayName, Image: p.Avatar}
	if len(p.Emails) > 0 {
		u.Email = p.Emails[0]
	}
	return u, nil
}
