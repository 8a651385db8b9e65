// Package clickup is the built-in ClickUp provider (OAuth 2.0). As in
// Auth.js, only the user's id and username are mapped: no e-mail address
// and no picture.
//
//	p := clickup.New(providers.OAuthUserConfig[clickup.Profile]{
//		ClientID:     os.Getenv("AUTH_CLICK_UP_ID"),
//		ClientSecret: os.Getenv("AUTH_CLICK_UP_SECRET"),
//	})
package clickup

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "click-up"
	// Name is the display name.
	Name = "ClickUp"
	// AuthorizationURL is where the user signs in and picks workspaces.
	AuthorizationURL = "https://app.clickup.com/api"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.clickup.com/api/v2/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.clickup.com/api/v2/user"
)

// Profile is the answer of GET /api/v2/user.
type Profile struct {
	// User is the authorized user.
	User User `json:"user"`
}

// User is a ClickUp user.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Username is the user's name.
	Username string `json:"username"`
	// Color is the user's colour, e.g. "#795548".
	Color string `json:"color,omitempty"`
	// ProfilePicture is the URL of the user's picture, if any.
	ProfilePicture string `json:"profilePicture,omitempty"`
}

// New returns the ClickUp provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the ClickUp configuration before any user option: the
// endpoints (ClickUp has no scopes), the checks (state), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{BrandColor: "#24292f"})
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// MapProfile maps a ClickUp user to a user: id ← user.id (as a string),
// name ← user.username; no e-mail, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.User.ID), Name: p.User.Username}, ID, "profile has no user id")
}
