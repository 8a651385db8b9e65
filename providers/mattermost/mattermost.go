package mattermost

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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

// mapProfile maps a Mattermost user to a user: id ← id, name ← username,
// else "first_name last_name", email ← email, no image.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	name := p.Username
	if name == "" {
		name = profile.FullName(p.FirstName, p.LastName)
	}
	return profile.User{ID: p.ID, Name: name, Email: p.Email}, nil
}
