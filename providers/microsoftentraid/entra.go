// Package microsoftentraid is the built-in Microsoft Entra ID provider
// (OpenID Connect; formerly Azure Active Directory), id
// "microsoft-entra-id". Package azuread is the same provider under the
// old id "azure-ad".
//
// # Tenants and the issuer
//
// The issuer names the tenant: https://login.microsoftonline.com/<tenant>/v2.0.
// With a tenant id (a GUID) the provider is single-tenant and the ID
// token's iss must equal that issuer, as for any OIDC provider. The
// default, Issuer (tenant "common"), and the tenants "organizations" and
// "consumers" are multi-tenant: their discovery document's issuer is the
// template DiscoveredIssuerTemplate, "https://login.microsoftonline.com/{tenantid}/v2.0",
// and each ID token is issued by the user's own tenant. For those the
// sign-in flow must:
//
//   - accept the template as the discovered issuer (ValidDiscoveredIssuer);
//   - check the ID token's iss against the token's own tid claim, not the
//     configured issuer: iss must equal IssuerForTenant(tid)
//     (ValidMultiTenantIssuer), the rule Microsoft documents for
//     multi-tenant applications. The signature is still checked with the
//     keys from discovery.
//
// Use a tenant's GUID, not its domain name, for single-tenant
// applications: discovery answers a GUID issuer either way.
package microsoftentraid

import (
	"regexp"
	"strings"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID   = "microsoft-entra-id"
	Name = "Microsoft Entra ID"
	// LoginURL is the base of every Entra issuer.
	LoginURL = "https://login.microsoftonline.com"
	// Issuer is the default issuer: the multi-tenant "common" endpoint,
	// for work, school and personal Microsoft accounts.
	Issuer = LoginURL + "/common/v2.0"
	// DiscoveredIssuerTemplate is the issuer that the multi-tenant
	// endpoints' discovery documents give.
	DiscoveredIssuerTemplate = LoginURL + "/{tenantid}/v2.0"
	// Scope adds Microsoft Graph's User.Read, which reading the profile
	// photo needs, to the OIDC scopes.
	Scope = "openid profile email User.Read"
)

// The multi-tenant tenant names.
const (
	TenantCommon        = "common"        // any work, school or personal account
	TenantOrganizations = "organizations" // work and school accounts
	TenantConsumers     = "consumers"     // personal Microsoft accounts
)

// New returns the Entra ID configuration with opts laid over its defaults
// by providers.Merge. The profile is the ID token's claims, mapped by
// profile.FromClaims (id ← sub; name ← name; email ← email); set Profile
// to PhotoProfile(…) to add the Graph profile photo as the image.
func New(opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	return providers.Merge(Defaults(), opts)
}

// NewForTenant is New with the issuer of tenant (a tenant id, or one of
// the Tenant constants) unless opts sets the issuer itself.
func NewForTenant(tenant string, opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	if opts.Issuer == "" {
		opts.Issuer = IssuerForTenant(tenant)
	}
	return New(opts)
}

// Defaults returns the configuration before any user option.
func Defaults() providers.OAuthConfig[profile.Claims] {
	return providers.OIDCDefaultsAt[profile.Claims](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#0072c6"})
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
