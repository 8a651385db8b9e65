package descope

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Issuer returns the issuer of the Descope project projectID (the client
// id).
func Issuer(projectID string) string { return IssuerBase + projectID }

// New returns the Descope provider configuration with opts laid over its
// defaults by providers.Merge. When opts sets a client id and no issuer,
// the issuer is Issuer(opts.ClientID). A client id that only arrives later
// (from AUTH_DESCOPE_ID at gatehouse.New) needs the issuer set as well
// (AUTH_DESCOPE_ISSUER).
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	c := providers.Merge(Defaults(), opts)
	if c.Issuer == "" && c.ClientID != "" {
		c.Issuer = Issuer(c.ClientID)
	}
	return c
}

// Defaults returns the Descope configuration before any user option: the
// scope, the checks (pkce and state, no nonce) and the button style. The
// issuer depends on the client id; see New.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#1C1C23"})
	c.Checks = []providers.Check{providers.CheckPKCE, providers.CheckState}
	c.Profile = MapProfile
	return c
}
