package mastodon

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
