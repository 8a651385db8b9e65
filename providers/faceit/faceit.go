// Package faceit is the built-in FACEIT provider (OAuth 2.0).
//
//	p := faceit.New(providers.OAuthUserConfig[faceit.Profile]{
//		ClientID:     os.Getenv("AUTH_FACEIT_ID"),
//		ClientSecret: os.Getenv("AUTH_FACEIT_SECRET"),
//	})
//
// FACEIT wants the client credentials in a Basic Authorization header at
// its token endpoint. Auth.js declares that header in a field its core
// never reads; here it is simply the default client_secret_basic.
package faceit

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "faceit"
	// Name is the display name.
	Name = "FACEIT"
	// AuthorizationURL is where the user signs in and consents; the
	// redirect_popup parameter is in Defaults' params.
	AuthorizationURL = "https://accounts.faceit.com/accounts"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.faceit.com/auth/v1/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.faceit.com/auth/v1/resources/userinfo"
)

// Profile is the answer of GET /auth/v1/resources/userinfo.
type Profile struct {
	// GUID is the user's FACEIT id.
	GUID string `json:"guid"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Nickname is the user's FACEIT nickname.
	Nickname string `json:"nickname,omitempty"`
	// GivenName is the user's first name.
	GivenName string `json:"given_name,omitempty"`
	// FamilyName is the user's last name.
	FamilyName string `json:"family_name,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Picture is the URL of the user's avatar.
	Picture string `json:"picture,omitempty"`
	// Locale is the user's locale.
	Locale string `json:"locale,omitempty"`
}

// New returns the FACEIT provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the FACEIT configuration before any user option: the
// endpoints with redirect_popup=true, the default checks (pkce) and
// MapProfile. FACEIT has no button style of its own.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"redirect_popup": "true"},
	}, MapProfile, providers.Style{})
}

// MapProfile maps a FACEIT user to a user: id ← guid, name ← name, email ←
// email, image ← picture.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.GUID, Name: p.Name, Email: p.Email, Image: p.Picture}, ID, "profile has no guid")
}
