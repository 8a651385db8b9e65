// Package simplelogin is the built-in SimpleLogin provider (OpenID
// Connect): its issuer, its claims, and their mapping to a user, which
// takes the picture from avatar_url.
//
//	p := simplelogin.New(providers.OIDCUserConfig[simplelogin.Profile]{
//		ClientID:     os.Getenv("AUTH_SIMPLELOGIN_ID"),
//		ClientSecret: os.Getenv("AUTH_SIMPLELOGIN_SECRET"),
//	})
package simplelogin

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "simplelogin"
	// Name is the display name.
	Name = "SimpleLogin"
	// Issuer is the issuer identifier; the endpoints come from its
	// discovery document.
	Issuer = "https://app.simplelogin.io"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is SimpleLogin's claims. The e-mail address may be a
// SimpleLogin alias of the user's real address.
type Profile struct {
	// Sub is the user's unique id.
	Sub string `json:"sub"`
	// Name is the user's name.
	Name string `json:"name"`
	// Email is the address the user chose to share (often an alias).
	Email string `json:"email"`
	// EmailVerified is true: SimpleLogin verifies its users' addresses.
	EmailVerified bool `json:"email_verified"`
	// AvatarURL is the user's avatar, if any.
	AvatarURL string `json:"avatar_url"`
	// Client is the name of the application the user signed in to.
	Client string `json:"client"`
}

// New returns the SimpleLogin provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the SimpleLogin configuration before any user option.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#e3156a"})
	c.Profile = MapProfile
	return c
}

// MapProfile maps SimpleLogin's claims to a user: id ← sub, name ← name,
// email ← email, image ← avatar_url. EmailVerified is set when
// email_verified is true, as the default OpenID Connect mapping does.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.Sub, Name: p.Name, Email: p.Email, Image: p.AvatarURL}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
