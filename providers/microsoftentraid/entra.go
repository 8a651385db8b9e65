package microsoftentraid

import (
	"regexp"
	"strings"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The multi-tenant tenant names.
const (
	TenantCommon        = "common"        // any work, school or personal account
	TenantOrganizations = "organizations" // work and school accounts
	TenantConsumers     = "consumers"     // personal Microsoft accounts
)

// NewForTenant is New with the issuer of tenant (a tenant id, or one of
// the Tenant constants) unless opts sets the issuer itself.
func NewForTenant(tenant string, opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	if opts.Issuer == "" {
		opts.Issuer = IssuerForTenant(tenant)
	}
	return New(opts)
}

// IssuerForTenant returns the v2.0 issuer of tenant:
// https://login.microsoftonline.com/<tenant>/v2.0.
func IssuerForTenant(tenant string) string {
	return LoginURL + "/" + tenant + "/v2.0"
}

// TenantOf returns the tenant part of an Entra v2.0 issuer, and false when
// issuer is not of that form.
func TenantOf(issuer string) (string, bool) {
	rest, ok := strings.CutPrefix(issuer, LoginURL+"/")
	if !ok {
		return "", false
	}
	tenant, ok := strings.CutSuffix(rest, "/v2.0")
	if !ok || tenant == "" || strings.Contains(tenant, "/") {
		return "", false
	}
	return tenant, true
}

// IsMultiTenant reports whether issuer is that of a multi-tenant endpoint
// (common, organizations or consumers), whose ID tokens are checked with
// ValidMultiTenantIssuer instead of against issuer itself.
func IsMultiTenant(issuer string) bool {
	t, ok := TenantOf(issuer)
	return ok && (t == TenantCommon || t == TenantOrganizations || t == TenantConsumers)
}

var guid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ValidMultiTenantIssuer reports whether an ID token from a multi-tenant
// endpoint has a consistent issuer: tid, the token's tenant id claim, is a
// GUID and iss equals IssuerForTenant(tid).
func ValidMultiTenantIssuer(iss, tid string) bool {
	return guid.MatchString(tid) && iss == IssuerForTenant(tid)
}

// ValidDiscoveredIssuer reports whether discovered, the issuer of the
// discovery document fetched for the configured issuer, is acceptable:
// equal to it, or, for a multi-tenant configured issuer, the template
// DiscoveredIssuerTemplate or a concrete tenant's issuer (the consumers
// endpoint answers with the personal-accounts tenant's id).
func ValidDiscoveredIssuer(configured, discovered string) bool {
	if discovered == configured {
		return true
	}
	if !IsMultiTenant(configured) {
		return false
	}
	if discovered == DiscoveredIssuerTemplate {
		return true
	}
	t, ok := TenantOf(discovered)
	return ok && guid.MatchString(t)
}
