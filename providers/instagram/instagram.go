// Package instagram is the built-in Instagram provider (OAuth 2.0, the
// Instagram Basic Display API, as in Auth.js). Instagram shares no e-mail
// address or picture through it: the user is an id and a username.
//
//	p := instagram.New(providers.OAuthUserConfig[instagram.Profile]{
//		ClientID:     os.Getenv("AUTH_INSTAGRAM_ID"),
//		ClientSecret: os.Getenv("AUTH_INSTAGRAM_SECRET"),
//	})
//
// Meta has retired the Basic Display API (December 2024); apps created
// since use the Instagram API with Instagram Login, whose endpoints and
// scopes differ. Override Authorization, Token, Userinfo and the scope to
// use it.
package instagram

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "instagram"
	// Name is the display name.
	Name = "Instagram"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://api.instagram.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post).
	TokenURL = "https://api.instagram.com/oauth/access_token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET; the fields
	// it returns are named in UserinfoFields.
	UserinfoURL = "https://graph.instagram.com/me"
	// UserinfoFields are the profile fields asked of UserinfoURL.
	UserinfoFields = "id,username,account_type,name"
	// Scope lets the token read the user's profile.
	Scope = "user_profile"
)

// Profile is the answer of GET /me?fields=id,username,account_type,name.
type Profile struct {
	// ID is the user's app-scoped id (digits, as a string).
	ID string `json:"id"`
	// Username is the user's Instagram username.
	Username string `json:"username"`
	// AccountType is BUSINESS, MEDIA_CREATOR or PERSONAL.
	AccountType string `json:"account_type,omitempty"`
	// Name is the user's name, when Instagram returns it.
	Name string `json:"name,omitempty"`
}

// New returns the Instagram provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Instagram configuration before any user option: the
// endpoints, the scope, the userinfo fields, the default checks (pkce),
// client_secret_post, MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#fff"})
	c.Userinfo.Params = map[string]string{"fields": UserinfoFields}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps an Instagram user to a user: id ← id, name ← username;
// no e-mail, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: p.Username}, ID, "profile has no id")
}
