// Package medium is the built-in Medium provider (OAuth 2.0): its
// endpoints, the record its /v1/me endpoint answers, and the mapping of
// that record to a user.
//
// Two settings differ from Auth.js's, which follow the defaults and do not
// match Medium's API documentation: the client credentials go in the token
// request's form (client_secret_post), as Medium lists client_id and
// client_secret among the form's fields; and the callback checks state,
// which Medium requires on the authorization request and which gives CSRF
// protection that PKCE, unknown to Medium, cannot.
//
//	p := medium.New(providers.OAuthUserConfig[medium.Profile]{
//		ClientID:     os.Getenv("AUTH_MEDIUM_ID"),
//		ClientSecret: os.Getenv("AUTH_MEDIUM_SECRET"),
//	})
package medium

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "medium"
	// Name is the display name.
	Name = "Medium"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://medium.com/m/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post).
	TokenURL = "https://api.medium.com/v1/tokens"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.medium.com/v1/me"
	// Scope grants the user's basic profile.
	Scope = "basicProfile"
)

// Profile is the answer of GET /v1/me: the user inside a data envelope.
type Profile struct {
	// Data is the user.
	Data User `json:"data"`
}

// User is a Medium user.
type User struct {
	// ID is the user's unique id.
	ID string `json:"id"`
	// Username is the user's handle, without the @.
	Username string `json:"username"`
	// Name is the user's name.
	Name string `json:"name"`
	// URL is the user's profile page.
	URL string `json:"url"`
	// ImageURL is the user's avatar.
	ImageURL string `json:"imageUrl"`
}

// New returns the Medium provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Medium configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a Medium profile to a user: id ← data.id, name ←
// data.name, no e-mail (Medium does not give it), image ← data.imageUrl.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.Data.ID, Name: p.Data.Name, Image: p.Data.ImageURL}, nil
}
