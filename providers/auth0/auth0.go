package auth0

import (
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the Auth0 configuration with opts laid over its defaults by
// providers.Merge, and a trailing slash added to the issuer. The endpoints
// come from discovery; the profile is the ID token's claims, mapped by
// profile.FromClaims.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	c := providers.Merge(Defaults(), opts)
	c.Issuer = NormalizeIssuer(c.Issuer)
	return c
}

// NormalizeIssuer returns issuer with a trailing slash, or "" for "".
func NormalizeIssuer(issuer string) string {
	if issuer == "" || strings.HasSuffix(issuer, "/") {
		return issuer
	}
	return issuer + "/"
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{BrandColor: "#EB5424", Icon: Icon}, MapProfile)
}
