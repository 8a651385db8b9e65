// Package tiktok is the built-in TikTok provider (OAuth 2.0, Login Kit
// v2): its endpoints, the user info record, and the mapping of that record
// to a user.
//
// TikTok calls the client id the client key and wants it under that name:
// as the client_key parameter of the authorization request and of the
// token request's form (the client credentials go in the form,
// client_secret_post). Both come from opts.ClientID, so New must be given
// the client id (the builtin registry does).
//
//	p := tiktok.New(providers.OAuthUserConfig[tiktok.Profile]{
//		ClientID:     os.Getenv("AUTH_TIKTOK_ID"), // the client key
//		ClientSecret: os.Getenv("AUTH_TIKTOK_SECRET"),
//	})
package tiktok

import (
	"context"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "tiktok"
	// Name is the display name.
	Name = "TikTok"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.tiktok.com/v2/auth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post, plus
	// client_key).
	TokenURL = "https://open.tiktokapis.com/v2/oauth/token/"
	// UserinfoURL answers the Profile to a Bearer GET, with the fields
	// user.info.basic grants.
	UserinfoURL = "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name"
	// Scope grants the user's open id, avatar and display name.
	Scope = "user.info.basic"
)

// Profile is the answer of GET /v2/user/info/: the user in data.user and
// the outcome in error.
type Profile struct {
	// Data holds the user.
	Data struct {
		// User is the TikTok user; which fields are present depends on
		// the fields query parameter and the granted scopes.
		User User `json:"user"`
	} `json:"data"`
	// Error is the outcome; its code is "ok" on success.
	Error Error `json:"error"`
}

// User is a TikTok user.
type User struct {
	// OpenID is the user's id for this application.
	OpenID string `json:"open_id"`
	// UnionID is the user's id across the developer's applications.
	UnionID string `json:"union_id,omitempty"`
	// AvatarURL is the user's avatar.
	AvatarURL string `json:"avatar_url"`
	// AvatarURL100 is the avatar at 100×100.
	AvatarURL100 string `json:"avatar_url_100,omitempty"`
	// AvatarLargeURL is the avatar at a higher resolution.
	AvatarLargeURL string `json:"avatar_large_url,omitempty"`
	// DisplayName is the user's profile name.
	DisplayName string `json:"display_name"`
	// Username is the user's handle (scope user.info.profile).
	Username string `json:"username,omitempty"`
	// BioDescription is the user's bio (scope user.info.profile).
	BioDescription string `json:"bio_description,omitempty"`
	// ProfileDeepLink is the user's profile page (scope user.info.profile).
	ProfileDeepLink string `json:"profile_deep_link,omitempty"`
	// IsVerified is TikTok's verified badge (scope user.info.profile).
	IsVerified bool `json:"is_verified,omitempty"`
}

// Error is the outcome part of a TikTok API answer.
type Error struct {
	// Code is "ok" on success.
	Code string `json:"code"`
	// Message describes a failure.
	Message string `json:"message"`
	// LogID identifies the request in TikTok's logs.
	LogID string `json:"log_id"`
}

// New returns the TikTok provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.ClientID), opts)
}

// Defaults returns the TikTok configuration for the client key clientKey
// before any user option.
func Defaults(clientKey string) providers.OAuthConfig[Profile] {
	e := providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope)
	e.AuthorizationParams["client_key"] = clientKey
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#000"})
	c.Token.Params = map[string]string{"client_key": clientKey}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a TikTok user to a user: id ← data.user.open_id, name ←
// data.user.display_name, no e-mail (TikTok does not give it), image ←
// data.user.avatar_url. An answer whose error code is not "ok" is an
// error.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.Error.Code != "" && p.Error.Code != "ok" {
		return profile.User{}, fmt.Errorf("tiktok: user info answered %s: %s (log id %s)", p.Error.Code, p.Error.Message, p.Error.LogID)
	}
	u := p.Data.User
	return profile.User{ID: u.OpenID, Name: u.DisplayName, Image: u.AvatarURL}, nil
}
