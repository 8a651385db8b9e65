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
	return providers.OAuthDefaults(ID, Name, providers.EndpointsUnder(base, AuthorizationPath, TokenPath, UserinfoPath, Scope), MapProfile, providers.Style{BrandColor: "#FC6D26", Icon: Icon})
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
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
