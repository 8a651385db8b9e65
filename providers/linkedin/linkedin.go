package linkedin

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the LinkedIn configuration with opts laid over its defaults
// by providers.Merge. The profile is the ID token's claims (sub, name,
// given_name, family_name, picture, email, email_verified, locale), mapped
// by profile.FromClaims.
func New(opts providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
	return providers.Merge(providers.OAuthConfig[profile.Claims]{
		ID:     ID,
		Name:   Name,
		Type:   providers.TypeOIDC,
		Issuer: Issuer,
		Authorization: providers.AuthorizationEndpoint{
			Params: map[string]string{"scope": Scope},
		},
		Checks:  []providers.Check{providers.CheckState},
		Client:  providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost},
		Profile: MapProfile,
		Style:   providers.Style{BrandColor: "#069"},
	}, opts)
}
