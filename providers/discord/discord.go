// Package discord is the built-in Discord provider (OAuth 2.0).
//
//	p := discord.New(providers.OAuthUserConfig[discord.Profile]{
//		ClientID:     os.Getenv("AUTH_DISCORD_ID"),
//		ClientSecret: os.Getenv("AUTH_DISCORD_SECRET"),
//	})
//
// Discord is configured as plain OAuth 2.0. Adding the openid scope makes
// Discord return an ID token too, which this configuration does not
// verify or use; the profile still comes from /users/@me.
package discord

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "discord"
	// Name is the display name.
	Name = "Discord"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://discord.com/api/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://discord.com/api/oauth2/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://discord.com/api/users/@me"
	// Scope asks for the user (identify) and their e-mail address.
	Scope = "identify email"
	// CDNURL is the base of avatar URLs.
	CDNURL = "https://cdn.discordapp.com"
)

// Profile is the answer of GET /users/@me (a Discord user object).
type Profile struct {
	// ID is the user's snowflake id (digits, as a string).
	ID string `json:"id"`
	// Username is the user's unique username.
	Username string `json:"username"`
	// Discriminator is the old four-digit tag, "0" for users that have
	// moved to unique usernames.
	Discriminator string `json:"discriminator"`
	// GlobalName is the user's display name, if set.
	GlobalName string `json:"global_name,omitempty"`
	// Avatar is the user's avatar hash; empty (null) for the default
	// avatar. Hashes starting with "a_" are animated.
	Avatar string `json:"avatar,omitempty"`
	// Bot is true for bot users.
	Bot bool `json:"bot,omitempty"`
	// System is true for Discord's official system user.
	System bool `json:"system,omitempty"`
	// MFAEnabled is true when the user has two-factor authentication on.
	MFAEnabled bool `json:"mfa_enabled,omitempty"`
	// Banner is the user's banner hash, if any.
	Banner string `json:"banner,omitempty"`
	// AccentColor is the user's banner colour as an integer, if set.
	AccentColor *int `json:"accent_color,omitempty"`
	// Locale is the user's chosen language, e.g. "en-US".
	Locale string `json:"locale,omitempty"`
	// Verified says whether the e-mail address is verified (email scope).
	Verified bool `json:"verified,omitempty"`
	// Email is the user's address (email scope).
	Email string `json:"email,omitempty"`
	// Flags are the user's account flags.
	Flags int64 `json:"flags,omitempty"`
	// PremiumType is the user's Nitro subscription type.
	PremiumType int `json:"premium_type,omitempty"`
	// PublicFlags are the user's public account flags.
	PublicFlags int64 `json:"public_flags,omitempty"`
}

// New returns the Discord provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Discord configuration before any user option: the
// endpoints, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#5865F2"})
}

// AvatarURL returns the URL of the user's avatar. With no avatar hash it
// is one of Discord's six default avatars,
// CDNURL/embed/avatars/<n>.png, where n is (id >> 22) mod 6 for users
// with discriminator "0" and discriminator mod 5 for the others. Otherwise
// it is CDNURL/avatars/<id>/<hash>.gif for animated hashes (those starting
// with "a_") and .png for the rest.
func AvatarURL(p Profile) string {
	if p.Avatar == "" {
		var n uint64
		if p.Discriminator == "0" || p.Discriminator == "" {
			id, _ := strconv.ParseUint(p.ID, 10, 64)
			n = (id >> 22) % 6
		} else {
			d, _ := strconv.ParseUint(p.Discriminator, 10, 64)
			n = d % 5
		}
		return CDNURL + "/embed/avatars/" + strconv.FormatUint(n, 10) + ".png"
	}
	format := "png"
	if strings.HasPrefix(p.Avatar, "a_") {
		format = "gif"
	}
	return CDNURL + "/avatars/" + p.ID + "/" + p.Avatar + "." + format
}

// MapProfile maps a Discord user to a user: id ← id, name ← global_name,
// else username, email ← email, image ← AvatarURL.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.ID == "" {
		return profile.User{}, errors.New("discord: profile has no id")
	}
	u := profile.User{ID: p.ID, Name: p.GlobalName, Email: p.Email, Image: AvatarURL(p)}
	if u.Name == "" {
		u.Name = p.Username
	}
	return u, nil
}
