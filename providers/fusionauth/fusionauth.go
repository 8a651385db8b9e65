package fusionauth

import (
	"context"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the FusionAuth configuration with opts laid over its
// defaults by providers.Merge; the token and userinfo URLs not set in opts
// are derived from the resulting issuer.
func New(opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	c := providers.Merge(Defaults(), opts)
	if base := strings.TrimRight(c.Issuer, "/"); base != "" {
		if c.Token.URL == "" {
			c.Token.URL = base + "/oauth2/token"
		}
		if c.Userinfo.URL == "" {
			c.Userinfo.URL = base + "/oauth2/userinfo"
		}
	}
	return c
}

// NewForTenant is New with the tenantId authorization parameter set to
// tenantID, unless opts sets it.
func NewForTenant(tenantID string, opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	if _, set := opts.Authorization.Params[TenantParam]; !set {
		params := map[string]string{TenantParam: tenantID}
		for k, v := range opts.Authorization.Params {
			params[k] = v
		}
		opts.Authorization.Params = params
	}
	return New(opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OAuthConfig[profile.Claims] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{Icon: Icon}, MapProfile)
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, c profile.Claims, _ account.TokenSet) (profile.User, error) {
	u := profile.FromClaims(c)
	u.ID = c.String("sub")
	u.Name = c.First("name", "preferred_username")
	if u.Name == "" {
		var parts []string
		for _, n := range []string{"given_name", "middle_name", "family_name"} {
			if s := c.String(n); s != "" {
				parts = append(parts, s)
			}
		}
		u.Name = strings.Join(parts, " ")
	}
	return u, nil
}
