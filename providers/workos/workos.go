package workos

import (
	"context"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the WorkOS provider configuration with opts laid over its
// defaults by providers.Merge. When opts.Issuer is set it replaces BaseURL.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	base := opts.Issuer
	if base == "" {
		base = BaseURL
	}
	return providers.Merge(Defaults(base), opts)
}

// Defaults returns the configuration for the API at baseURL (a trailing
// slash is allowed) before any user option. It sets no scope: WorkOS SSO
// has none.
func Defaults(baseURL string) providers.OAuthConfig[Profile] {
	base := strings.TrimRight(baseURL, "/")
	e := providers.OAuthEndpoints{AuthorizationURL: base + AuthorizationPath, TokenURL: base + TokenPath, UserinfoURL: base + UserinfoPath}
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#6363f1"})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	picture, _ := p.RawAttributes["picture"].(string)
	return profile.User{
		ID:    p.ID,
		Name:  profile.FullName(p.FirstName, p.LastName),
		Email: p.Email,
		Image: picture,
	}, nil
}
