// Package twitter is the built-in X (formerly Twitter) provider: OAuth 2.0
// with PKCE and state, profile from the v2 API's users/me. The id stays
// "twitter", as in Auth.js. OAuth 1.0a is not supported.
package twitter

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID               = "twitter"
	Name             = "Twitter"
	AuthorizationURL = "https://x.com/i/oauth2/authorize"
	TokenURL         = "https://api.x.com/2/oauth2/token"
	// UserinfoURL asks users/me for the profile image besides id, name
	// and username.
	UserinfoURL = "https://api.x.com/2/users/me?user.fields=profile_image_url"
	// Scope reads the user (users.read needs tweet.read) and asks for a
	// refresh token (offline.access).
	Scope = "users.read tweet.read offline.access"
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

// Profile is the answer of users/me: the user under "data".
type Profile struct {
	Data User `json:"data"`
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

// MapProfile is the default mapping: id ← data.id; name ← data.name;
// email ← data.email; image ← data.profile_image_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{
		ID:    p.Data.ID,
		Name:  p.Data.Name,
		Email: p.Data.Email,
		Image: p.Data.ProfileImageURL,
	}, ID, "users/me answered no data.id")
}
