package boxyhqsaml

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the BoxyHQ SAML provider configuration for the Jackson
// service at opts.Issuer, with opts laid over its defaults by
// providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the Jackson service at issuer
// (a trailing slash is allowed): the endpoints below it, the provider=saml
// parameter, the default checks (pkce), MapProfile and the button style.
// With issuer "" the endpoints are left empty, and gatehouse.New reports
// the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile, providers.Style{BrandColor: "#25c2a0"})
	c.Authorization.Params = map[string]string{"provider": Provider}
	return c
}
