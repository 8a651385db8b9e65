// Package eveonline is the built-in EVE Online provider (OAuth 2.0, EVE
// SSO). The user is an EVE character: the profile comes from the SSO's
// verify endpoint, and the picture from EVE's image server.
//
//	p := eveonline.New(providers.OAuthUserConfig[eveonline.Profile]{
//		ClientID:     os.Getenv("AUTH_EVEONLINE_ID"),
//		ClientSecret: os.Getenv("AUTH_EVEONLINE_SECRET"),
//	})
package eveonline

import (
	"context"
	"strconv"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "eveonline"
	// Name is the display name.
	Name = "EVE Online"
	// AuthorizationURL is where the user signs in and picks a character.
	AuthorizationURL = "https://login.eveonline.com/v2/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://login.eveonline.com/v2/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://login.eveonline.com/oauth/verify"
	// Scope asks for the character's public data.
	Scope = "publicData"
	// ImageBaseURL is the base of character portraits:
	// ImageBaseURL/Character/<id>_<size>.jpg.
	ImageBaseURL = "https://image.eveonline.com"
)

// Profile is the answer of GET /oauth/verify: the character the token
// belongs to.
type Profile struct {
	// CharacterID is the character's numeric id.
	CharacterID int64 `json:"CharacterID"`
	// CharacterName is the character's name.
	CharacterName string `json:"CharacterName"`
	// ExpiresOn is when the access token expires.
	ExpiresOn string `json:"ExpiresOn,omitempty"`
	// Scopes are the token's scopes, space-separated.
	Scopes string `json:"Scopes,omitempty"`
	// TokenType is "Character".
	TokenType string `json:"TokenType,omitempty"`
	// CharacterOwnerHash changes when the character changes owner; an
	// application that keys users by character should compare it.
	CharacterOwnerHash string `json:"CharacterOwnerHash,omitempty"`
	// IntellectualProperty is "EVE".
	IntellectualProperty string `json:"IntellectualProperty,omitempty"`
}

// New returns the EVE Online provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the EVE Online configuration before any user option:
// the endpoints, the scope, the checks (state) and MapProfile. EVE Online
// has no button style of its own.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// PortraitURL returns the URL of the character's 128×128 portrait.
func PortraitURL(characterID int64) string {
	return ImageBaseURL + "/Character/" + strconv.FormatInt(characterID, 10) + "_128.jpg"
}

// MapProfile maps an EVE character to a user: id ← CharacterID (as a
// string), name ← CharacterName, no e-mail, image ← PortraitURL.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{
		ID:    providers.FormatID(p.CharacterID),
		Name:  p.CharacterName,
		Image: PortraitURL(p.CharacterID),
	}, ID, "profile has no CharacterID")
}
