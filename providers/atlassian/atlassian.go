// Package atlassian is the built-in Atlassian provider (OAuth 2.0 "3LO",
// Atlassian accounts as used by Jira, Confluence and Bitbucket Cloud).
//
//	p := atlassian.New(providers.OAuthUserConfig[atlassian.Profile]{
//		ClientID:     os.Getenv("AUTH_ATLASSIAN_ID"),
//		ClientSecret: os.Getenv("AUTH_ATLASSIAN_SECRET"),
//	})
package atlassian

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "atlassian"
	// Name is the display name.
	Name = "Atlassian"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://auth.atlassian.com/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://auth.atlassian.com/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://api.atlassian.com/me"
	// Scope lets the token read the user's account (GET /me).
	Scope = "read:me"
	// Audience is the API the token is for; Atlassian requires it.
	Audience = "api.atlassian.com"
	// Prompt shows the consent screen, which Atlassian's 3LO documentation
	// lists as a required parameter.
	Prompt = "consent"
)

// Profile is the answer of GET /me.
type Profile struct {
	// AccountID is the user's Atlassian account id.
	AccountID string `json:"account_id"`
	// AccountType is "atlassian" for Atlassian accounts.
	AccountType string `json:"account_type,omitempty"`
	// AccountStatus is "active", "inactive" or "closed".
	AccountStatus string `json:"account_status,omitempty"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// Nickname is the user's public name.
	Nickname string `json:"nickname,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// EmailVerified says whether Atlassian verified Email.
	EmailVerified bool `json:"email_verified,omitempty"`
	// Picture is the URL of the user's avatar.
	Picture string `json:"picture,omitempty"`
	// Zoneinfo is the user's time zone, e.g. "Australia/Sydney".
	Zoneinfo string `json:"zoneinfo,omitempty"`
	// Locale is the user's locale, e.g. "en-US".
	Locale string `json:"locale,omitempty"`
	// ExtendedProfile holds job details, when the user shares them.
	ExtendedProfile ExtendedProfile `json:"extended_profile,omitzero"`
}

// ExtendedProfile is the job part of an Atlassian profile.
type ExtendedProfile struct {
	// JobTitle is the user's job title.
	JobTitle string `json:"job_title,omitempty"`
	// Organization is the user's organization.
	Organization string `json:"organization,omitempty"`
	// Department is the user's department.
	Department string `json:"department,omitempty"`
	// Location is where the user works.
	Location string `json:"location,omitempty"`
}

// New returns the Atlassian provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Atlassian configuration before any user option: the
// endpoints, the scope, audience and prompt, the checks (state: Atlassian
// does not do PKCE), MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"scope": Scope, "audience": Audience, "prompt": Prompt},
	}, MapProfile, providers.Style{BrandColor: "#fff"})
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// MapProfile maps an Atlassian profile to a user: id ← account_id, name ←
// name, email ← email, image ← picture.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.AccountID, Name: p.Name, Email: p.Email, Image: p.Picture}, ID, "profile has no account_id")
}
