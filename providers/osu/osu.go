// Package osu is the built-in osu! provider (OAuth 2.0): its endpoints,
// the user record of the osu! API v2, and the mapping of that record to a
// user.
//
//	p := osu.New(providers.OAuthUserConfig[osu.Profile]{
//		ClientID:     os.Getenv("AUTH_OSU_ID"),
//		ClientSecret: os.Getenv("AUTH_OSU_SECRET"),
//	})
package osu

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "osu"
	// Name is the display name.
	Name = "osu!"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://osu.ppy.sh/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://osu.ppy.sh/oauth/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://osu.ppy.sh/api/v2/me"
	// Scope lets the token read the user's public profile.
	Scope = "identify"
)

// Profile is the User object of GET /api/v2/me (the fields a sign-in
// needs; the answer has many more).
type Profile struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Username is the user's current name.
	Username string `json:"username"`
	// AvatarURL is the user's avatar.
	AvatarURL string `json:"avatar_url"`
	// CountryCode is the user's ISO 3166-1 alpha-2 country code.
	CountryCode string `json:"country_code"`
	// DefaultGroup is the user's main group, e.g. "default".
	DefaultGroup string `json:"default_group"`
	// IsActive is true for an account active in the last months.
	IsActive bool `json:"is_active"`
	// IsBot is true for a bot account.
	IsBot bool `json:"is_bot"`
	// IsDeleted is true for a deleted account.
	IsDeleted bool `json:"is_deleted"`
	// IsOnline is true while the user is online.
	IsOnline bool `json:"is_online"`
	// IsSupporter is true for an osu!supporter.
	IsSupporter bool `json:"is_supporter"`
	// CoverURL is the user's profile cover image.
	CoverURL string `json:"cover_url"`
	// JoinDate is when the account was created (RFC 3339).
	JoinDate string `json:"join_date"`
	// Playmode is the user's default game mode, e.g. "osu".
	Playmode string `json:"playmode"`
}

// New returns the osu! provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the osu! configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
}

// MapProfile maps an osu! user to a user: id ← id (as a string), name ←
// username, no e-mail (osu! does not give it), image ← avatar_url. A
// profile without an id is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: p.Username, Image: p.AvatarURL}, ID, "profile has no id")
}
