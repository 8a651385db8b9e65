package twitter

import (
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the X configuration with opts laid over its defaults by
// providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(providers.OAuthConfig[Profile]{
		ID:   ID,
		Name: Name,
		Type: providers.TypeOAuth,
		Authorization: providers.AuthorizationEndpoint{
			URL:    AuthorizationURL,
			Params: map[string]string{"scope": Scope},
		},
		Token:    providers.TokenEndpoint{URL: TokenURL},
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: UserinfoURL},
		// X requires PKCE and a state.
		Checks:  []providers.Check{providers.CheckPKCE, providers.CheckState},
		Profile: MapProfile,
		Style:   providers.Style{BrandColor: "#1da1f2"},
	}, opts)
}

// User is an X user object, with the fields Gatehouse asks for.
type User struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	// Email is only present when the app asks for it and X grants it;
	// X does not send it with the default fields.
	Email           string `json:"email,omitempty"`
	ProfileImageURL string `json:"profile_image_url,omitempty"`
}
