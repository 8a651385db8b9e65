// Package bitbucket is the built-in Bitbucket Cloud provider (OAuth 2.0).
// The user endpoint carries no e-mail address, so users signed in with
// Bitbucket have none.
//
//	p := bitbucket.New(providers.OAuthUserConfig[bitbucket.Profile]{
//		ClientID:     os.Getenv("AUTH_BITBUCKET_ID"),     // the consumer key
//		ClientSecret: os.Getenv("AUTH_BITBUCKET_SECRET"), // the consumer secret
//	})
package bitbucket

import (
	"context"
	"errors"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "bitbucket"
	// Name is the display name.
	Name = "Bitbucket"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://bitbucket.org/site/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://bitbucket.org/site/oauth2/access_token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.bitbucket.org/2.0/user"
	// Scope lets the token read the user's account.
	Scope = "account"
)

// Profile is the answer of GET /2.0/user.
type Profile struct {
	// AccountID is the user's Atlassian account id.
	AccountID string `json:"account_id"`
	// UUID is the user's Bitbucket id, in braces.
	UUID string `json:"uuid,omitempty"`
	// Username is the user's Bitbucket username.
	Username string `json:"username,omitempty"`
	// Nickname is the user's public nickname.
	Nickname string `json:"nickname,omitempty"`
	// DisplayName is the user's display name.
	DisplayName string `json:"display_name,omitempty"`
	// AccountStatus is e.g. "active".
	AccountStatus string `json:"account_status,omitempty"`
	// CreatedOn is when the account was created (ISO 8601).
	CreatedOn string `json:"created_on,omitempty"`
	// IsStaff is true for Atlassian staff.
	IsStaff bool `json:"is_staff,omitempty"`
	// Type is "user".
	Type string `json:"type,omitempty"`
	// Links are the account's API and web links.
	Links Links `json:"links"`
}

// Links are a Bitbucket user's links.
type Links struct {
	// Self is the user's API URL.
	Self Link `json:"self,omitzero"`
	// HTML is the user's profile page.
	HTML Link `json:"html,omitzero"`
	// Avatar is the user's avatar picture.
	Avatar Link `json:"avatar,omitzero"`
}

// Link is one Bitbucket link.
type Link struct {
	// Href is the link's URL.
	Href string `json:"href"`
}

// New returns the Bitbucket provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Bitbucket configuration before any user option: the
// endpoints, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#205081"})
}

// MapProfile maps a Bitbucket user to a user: id ← account_id, name ←
// display_name, else username, no e-mail, image ← links.avatar.href.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.AccountID == "" {
		return profile.User{}, errors.New("bitbucket: profile has no account_id")
	}
	u := profile.User{ID: p.AccountID, Name: p.DisplayName, Image: p.Links.Avatar.Href}
	if u.Name == "" {
		u.Name = p.Username
	}
	return u, nil
}
