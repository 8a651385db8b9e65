// Package amazon is the built-in Login with Amazon provider (OAuth 2.0),
// which Auth.js does not have: its endpoints, the customer profile record,
// and the mapping of that record to a user.
//
//	p := amazon.New(providers.OAuthUserConfig[amazon.Profile]{
//		ClientID:     os.Getenv("AUTH_AMAZON_ID"),
//		ClientSecret: os.Getenv("AUTH_AMAZON_SECRET"),
//	})
package amazon

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "amazon"
	// Name is the display name.
	Name = "Amazon"
	// AuthorizationURL is where the customer signs in and consents.
	AuthorizationURL = "https://www.amazon.com/ap/oa"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.amazon.com/auth/o2/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://api.amazon.com/user/profile"
	// Scope grants the customer's id, name and e-mail address.
	Scope = "profile"
)

// Profile is the answer of GET /user/profile.
type Profile struct {
	// UserID is the customer's id for this application,
	// "amzn1.account.…".
	UserID string `json:"user_id"`
	// Name is the customer's name.
	Name string `json:"name"`
	// Email is the customer's e-mail address.
	Email string `json:"email"`
	// PostalCode is the customer's postal code (scope postal_code).
	PostalCode string `json:"postal_code,omitempty"`
}

// New returns the Amazon provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Amazon configuration before any user option. The
// button uses Amazon's brand orange.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#ff9900"})
}

// MapProfile maps an Amazon customer profile to a user: id ← user_id,
// name ← name, email ← email. Amazon gives no picture.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.UserID, Name: p.Name, Email: p.Email}, nil
}
