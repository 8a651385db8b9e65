// Package threads is the built-in Threads provider (OAuth 2.0, Meta's
// Threads API): its endpoints, the user record, and the mapping of that
// record to a user.
//
// Auth.js maps data.id, data.username and so on, as if the answer were
// wrapped in a data member; the Threads API's /me answers the fields at
// the top level, so here the mapping reads them there.
//
//	p := threads.New(providers.OAuthUserConfig[threads.Profile]{
//		ClientID:     os.Getenv("AUTH_THREADS_ID"),
//		ClientSecret: os.Getenv("AUTH_THREADS_SECRET"),
//	})
package threads

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "threads"
	// Name is the display name.
	Name = "Threads"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://threads.net/oauth/authorize"
	// TokenURL exchanges the code for tokens, with the client credentials
	// in the form (client_secret_post).
	TokenURL = "https://graph.threads.net/oauth/access_token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url"
	// Scope grants the user's basic profile.
	Scope = "threads_basic"
)

// Profile is the answer of GET /v1.0/me with the fields UserinfoURL asks
// for.
type Profile struct {
	// ID is the user's Threads id.
	ID string `json:"id"`
	// Username is the user's handle.
	Username string `json:"username"`
	// ThreadsProfilePictureURL is the user's picture.
	ThreadsProfilePictureURL string `json:"threads_profile_picture_url"`
	// ThreadsBiography is the user's biography (when asked for).
	ThreadsBiography string `json:"threads_biography,omitempty"`
}

// New returns the Threads provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Threads configuration before any user option. The
// callback checks state.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#000"})
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a Threads user to a user: id ← id, name ← username, no
// e-mail (Threads does not give it), image ← threads_profile_picture_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID, Name: p.Username, Image: p.ThreadsProfilePictureURL}, nil
}
