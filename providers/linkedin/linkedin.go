// Package linkedin is the built-in LinkedIn provider: OpenID Connect
// ("Sign In with LinkedIn using OpenID Connect"), client_secret_post, with
// the state check only, as in Auth.js: neither PKCE nor a nonce is sent.
package linkedin

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID     = "linkedin"
	Name   = "LinkedIn"
	Issuer = "https://www.linkedin.com/oauth"
	Scope  = "openid profile email"
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
		Checks: []providers.Check{providers.CheckState},
		Client: providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost},
		Style:  providers.Style{BrandColor: "#069"},
	}, opts)
}
