// Package figma is the built-in Figma provider (OAuth 2.0).
//
//	p := figma.New(providers.OAuthUserConfig[figma.Profile]{
//		ClientID:     os.Getenv("AUTH_FIGMA_ID"),
//		ClientSecret: os.Getenv("AUTH_FIGMA_SECRET"),
//	})
package figma

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "figma"
	// Name is the display name.
	Name = "Figma"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.figma.com/oauth"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.figma.com/v1/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.figma.com/v1/me"
	// Scope lets the token read the user's files (and GET /v1/me).
	Scope = "files:read"
)

// Profile is the answer of GET /v1/me.
type Profile struct {
	// ID is the user's id (digits, as a string).
	ID string `json:"id"`
	// Handle is the user's name.
	Handle string `json:"handle"`
	// ImgURL is the URL of the user's avatar.
	ImgURL string `json:"img_url,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
}

// New returns the Figma provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Figma configuration before any user option: the
// endpoints, the scope, the checks (state), MapProfile and the button
// style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#ff7237"})
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// MapProfile maps a Figma user to a user: id ← id, name ← handle, email ←
// email, image ← img_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: p.Handle, Email: p.Email, Image: p.ImgURL}, ID, "profile has no id")
}
