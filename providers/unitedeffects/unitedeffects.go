package unitedeffects

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the United Effects provider configuration for the issuer
// opts.Issuer, with opts laid over its defaults by providers.Merge.
// opts.Issuer is required: without it the configuration is incomplete and
// gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for issuer before any user option:
// the scope, resource=<issuer> (left out when issuer is "") and the
// default checks (pkce, state, nonce).
func Defaults(issuer string) providers.OIDCConfig[Profile] {
	c := providers.OIDCWith(ID, Name, Scope, providers.Style{}, MapProfile)
	if issuer != "" {
		c.Authorization.Params["resource"] = issuer
	}
	return c
}
