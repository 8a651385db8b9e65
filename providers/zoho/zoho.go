// Package zoho is the built-in Zoho provider (OAuth 2.0): its endpoints on
// the US data centre (accounts.zoho.com), the user record, and the mapping
// of that record to a user. Accounts in other data centres sign in at
// their own host (accounts.zoho.eu, accounts.zoho.in, …): override the
// three URLs for those.
//
//	p := zoho.New(providers.OAuthUserConfig[zoho.Profile]{
//		ClientID:     os.Getenv("AUTH_ZOHO_ID"),
//		ClientSecret: os.Getenv("AUTH_ZOHO_SECRET"),
//	})
package zoho

import (
	"context"
	"encoding/json"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "zoho"
	// Name is the display name.
	Name = "Zoho"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://accounts.zoho.com/oauth/v2/auth"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://accounts.zoho.com/oauth/v2/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://accounts.zoho.com/oauth/user/info"
	// Scope lets the token read the user's profile.
	Scope = "AaaServer.profile.Read"
)

// Profile is the answer of GET /oauth/user/info.
type Profile struct {
	// ZUID is the user's Zoho user id (a number).
	ZUID json.Number `json:"ZUID"`
	// FirstName is the user's first name.
	FirstName string `json:"First_Name"`
	// LastName is the user's last name.
	LastName string `json:"Last_Name"`
	// DisplayName is the user's display name.
	DisplayName string `json:"Display_Name"`
	// Email is the user's primary e-mail address.
	Email string `json:"Email"`
}

// New returns the Zoho provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Zoho configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{})
}

// MapProfile maps a Zoho user to a user: id ← ZUID, name ← "First_Name
// Last_Name", email ← Email, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{
		ID:    p.ZUID.String(),
		Name:  profile.FullName(p.FirstName, p.LastName),
		Email: p.Email,
	}, nil
}
