// Package todoist is the built-in Todoist provider (OAuth 2.0): its
// endpoints, the user record of the Sync API, and the mapping of that
// record to a user.
//
// Todoist has no userinfo endpoint: the user record comes from a Sync API
// POST asking for the user resource only (see Userinfo). Auth.js
// configures that request without a userinfo URL, which its own
// configuration check then rejects; here UserinfoURL is set, so the
// configuration is complete and the URL can be overridden. Todoist
// requires a state on the authorization request and does not implement
// PKCE, so the callback checks state.
//
//	p := todoist.New(providers.OAuthUserConfig[todoist.Profile]{
//		ClientID:     os.Getenv("AUTH_TODOIST_ID"),
//		ClientSecret: os.Getenv("AUTH_TODOIST_SECRET"),
//	})
package todoist

import (
	"context"
	"errors"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "todoist"
	// Name is the display name.
	Name = "Todoist"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://todoist.com/oauth/authorize"
	// TokenURL exchanges the code for tokens, with the client credentials
	// in the form (client_secret_post).
	TokenURL = "https://todoist.com/oauth/access_token"
	// UserinfoURL is the Sync API endpoint the user record is read from;
	// see Userinfo.
	UserinfoURL = "https://api.todoist.com/sync/v9/sync"
	// Scope lets the token read the user's data.
	Scope = "data:read"
)

// Profile is the Sync API's user resource.
type Profile struct {
	// ID is the user's id (a string of digits).
	ID string `json:"id"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// FullName is the user's name.
	FullName string `json:"full_name"`
	// AvatarBig is the large avatar (195×195).
	AvatarBig string `json:"avatar_big,omitempty"`
	// AvatarMedium is the medium avatar (60×60).
	AvatarMedium string `json:"avatar_medium,omitempty"`
	// AvatarS640 is the 640×640 avatar.
	AvatarS640 string `json:"avatar_s640,omitempty"`
	// AvatarSmall is the small avatar (35×35).
	AvatarSmall string `json:"avatar_small,omitempty"`
	// Lang is the user's language, e.g. "en".
	Lang string `json:"lang,omitempty"`
	// IsPremium is true for a Pro user.
	IsPremium bool `json:"is_premium"`
	// JoinedAt is when the account was created (RFC 3339).
	JoinedAt string `json:"joined_at,omitempty"`
}

// New returns the Todoist provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Todoist configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#E44332"})
	c.Userinfo.Request = Userinfo
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// Userinfo is a POST of the form sync_token=* and resource_types=["user"]
// to r.URL with the Bearer token. It returns the answer's user member.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	form := url.Values{"sync_token": {"*"}, "resource_types": {`["user"]`}}
	var answer struct {
		User *Profile `json:"user"`
	}
	if err := providers.PostForm(ctx, r.HTTPClient, r.URL, r.Tokens.AccessToken, form, &answer); err != nil {
		return Profile{}, err
	}
	if answer.User == nil {
		return Profile{}, errors.New("todoist: the sync answer has no user")
	}
	return *answer.User, nil
}

// MapProfile maps a Todoist user to a user: id ← id, name ← full_name,
// email ← email, image ← avatar_big.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID, Name: p.FullName, Email: p.Email, Image: p.AvatarBig}, nil
}
