package azuread

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/microsoftentraid"
)

// New returns the Entra ID configuration with the id "azure-ad" and the
// name "Azure Active Directory", with opts laid over it by
// providers.Merge.
func New(opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	return providers.Merge(Defaults(), opts)
}

// NewForTenant is New with the issuer of tenant unless opts sets one (see
// microsoftentraid.NewForTenant).
func NewForTenant(tenant string, opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	if opts.Issuer == "" {
		opts.Issuer = microsoftentraid.IssuerForTenant(tenant)
	}
	return New(opts)
}

// Defaults returns microsoftentraid.Defaults with this package's id, name
// and MapProfile.
func Defaults() providers.OAuthConfig[profile.Claims] {
	d := microsoftentraid.Defaults()
	d.ID = ID
	d.Name = Name
	d.Profile = MapProfile
	return d
}
