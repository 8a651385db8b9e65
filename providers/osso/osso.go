package osso

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Requested holds the domain or e-mail address the sign-in was started
// with.
type Requested struct {
	// Domain is the requested domain, if any.
	Domain string `json:"domain,omitempty"`
	// Email is the requested e-mail address, if any.
	Email string `json:"email,omitempty"`
}

// New returns the Osso provider configuration for the deployment at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the deployment at issuer, its
// base URL. It sets no scope and no Profile: the default mapping gives
// id ← id, email ← email. With issuer "" the endpoints are left empty, and
// gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults[Profile](ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile, providers.Style{})
}
