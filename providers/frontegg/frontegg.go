package frontegg

import (
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the Frontegg provider configuration for the domain at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the Frontegg domain issuer: the
// endpoints below it, the scope and the default checks. With issuer "" the
// endpoints are left empty, and gatehouse.New reports the missing issuer.
// Frontegg has no button style of its own.
func Defaults(issuer string) providers.OIDCConfig[Profile] {
	c := providers.OIDCWith(ID, Name, Scope, providers.Style{}, MapProfile)
	if base := strings.TrimRight(issuer, "/"); base != "" {
		c.Issuer = base
		c.Authorization.URL = base + AuthorizationPath
		c.Token.URL = base + TokenPath
		c.Userinfo.URL = base + UserinfoPath
		c.WellKnown = base + WellKnownPath
	}
	return c
}
