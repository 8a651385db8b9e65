package tiktok

import (
	"context"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#000", Icon: Icon})
	c.Token.Params = map[string]string{"client_key": clientKey}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.Error.Code != "" && p.Error.Code != "ok" {
		return profile.User{}, fmt.Errorf("tiktok: user info answered %s: %s (log id %s)", p.Error.Code, p.Error.Message, p.Error.LogID)
	}
	u := p.Data.User
	return profile.User{ID: u.OpenID, Name: u.DisplayName, Image: u.AvatarURL}, nil
}
