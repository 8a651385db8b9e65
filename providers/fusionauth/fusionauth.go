// Package fusionauth is the built-in FusionAuth provider (OpenID Connect).
//
// The issuer has no default: set Issuer (or AUTH_FUSIONAUTH_ISSUER for
// builtin.FromEnv) to the FusionAuth URL, e.g. https://auth.example.com.
// It must also be the tenant's configured issuer in FusionAuth, whose
// default ("acme.com") is not a URL and does not match. The authorization
// endpoint comes from discovery; the token and userinfo endpoints are
// <issuer>/oauth2/token and <issuer>/oauth2/userinfo unless set. For a
// tenant other than the default one, add the tenantId parameter to the
// authorization endpoint (see NewForTenant).
package fusionauth

import (
	"context"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID   = "fusionauth"
	Name = "FusionAuth"
	// Scope adds offline_access (a refresh token) to the OIDC scopes.
	Scope = "openid offline_access email profile"
	// TenantParam is the authorization parameter naming the tenant.
	TenantParam = "tenantId"
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
	return providers.OIDCWith(ID, Name, Scope, providers.Style{}, MapProfile)
}

// MapProfile is the default mapping: id ← sub; name ← name, else
// preferred_username, else given_name middle_name family_name; email ←
// email; image ← picture. EmailVerified as profile.FromClaims.
func MapProfile(_ context.Context, c profile.Claims, _ account.TokenSet) (profile.User, error) {
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
