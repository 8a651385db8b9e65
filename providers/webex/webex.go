// Package webex is the built-in Webex provider (OAuth 2.0): its endpoints
// under the Webex API base URL, the person record, and the mapping of that
// record to a user. For another API base (e.g. a FedRAMP deployment), use
// NewAPI.
//
//	p := webex.New(providers.OAuthUserConfig[webex.Profile]{
//		ClientID:     os.Getenv("AUTH_WEBEX_ID"),
//		ClientSecret: os.Getenv("AUTH_WEBEX_SECRET"),
//	})
package webex

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the API base URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "webex"
	// Name is the display name.
	Name = "Webex"
	// APIBaseURL is the default API base URL.
	APIBaseURL = "https://webexapis.com/v1"
	// AuthorizationPath is where the user signs in and consents.
	AuthorizationPath = "/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/access_token"
	// UserinfoPath answers the Profile to a Bearer GET.
	UserinfoPath = "/people/me"
	// Scope lets the token read the user's person record; spark:kms lets
	// it use Webex's key management, which Webex asks integrations for.
	Scope = "spark:kms spark:people_read"
)

// Profile is the Person record of GET /people/me.
type Profile struct {
	// ID is the person's unique id.
	ID string `json:"id"`
	// Emails are the person's e-mail addresses.
	Emails []string `json:"emails"`
	// DisplayName is the person's full name.
	DisplayName string `json:"displayName"`
	// NickName is the person's nickname.
	NickName string `json:"nickName,omitempty"`
	// FirstName is the person's first name.
	FirstName string `json:"firstName,omitempty"`
	// LastName is the person's last name.
	LastName string `json:"lastName,omitempty"`
	// Avatar is the URL of the person's picture.
	Avatar string `json:"avatar,omitempty"`
	// OrgID is the person's organization.
	OrgID string `json:"orgId"`
	// Type is "person", "bot" or "appuser".
	Type string `json:"type"`
	// Created is when the person was created (RFC 3339).
	Created string `json:"created,omitempty"`
	// Status is the person's presence, e.g. "active".
	Status string `json:"status,omitempty"`
}

// New returns the Webex provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return NewAPI(APIBaseURL, opts)
}

// NewAPI returns the configuration for the Webex API at apiBaseURL (e.g.
// https://api-usgov.webex.com/v1), with opts laid over it.
func NewAPI(apiBaseURL string, opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(apiBaseURL), opts)
}

// Defaults returns the configuration for the API at apiBaseURL before any
// user option.
func Defaults(apiBaseURL string) providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.EndpointsUnder(apiBaseURL, AuthorizationPath, TokenPath, UserinfoPath, Scope), MapProfile, providers.Style{})
}

// MapProfile maps a Webex person to a user: id ← id, name ← displayName,
// email ← the first of emails, image ← avatar.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: p.DisplayName, Image: p.Avatar}
	if len(p.Emails) > 0 {
		u.Email = p.Emails[0]
	}
	return u, nil
}
