// Package mailchimp is the built-in Mailchimp provider (OAuth 2.0): its
// endpoints, the record its metadata endpoint answers, and the mapping of
// that record to a user.
//
//	p := mailchimp.New(providers.OAuthUserConfig[mailchimp.Profile]{
//		ClientID:     os.Getenv("AUTH_MAILCHIMP_ID"),
//		ClientSecret: os.Getenv("AUTH_MAILCHIMP_SECRET"),
//	})
package mailchimp

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "mailchimp"
	// Name is the display name.
	Name = "Mailchimp"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://login.mailchimp.com/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://login.mailchimp.com/oauth2/token"
	// UserinfoURL answers the Profile (the token's metadata) to a Bearer GET.
	UserinfoURL = "https://login.mailchimp.com/oauth2/metadata"
)

// Profile is the answer of Mailchimp's metadata endpoint: the account the
// token belongs to and the login that granted it.
type Profile struct {
	// DC is the account's data centre, e.g. "us1".
	DC string `json:"dc"`
	// Role is the login's role in the account, e.g. "owner".
	Role string `json:"role"`
	// AccountName is the account's name.
	AccountName string `json:"accountname"`
	// UserID is the account's id.
	UserID int64 `json:"user_id"`
	// Login is the person who signed in.
	Login Login `json:"login"`
	// LoginURL is the account's login page.
	LoginURL string `json:"login_url"`
	// APIEndpoint is the base URL of the account's Marketing API.
	APIEndpoint string `json:"api_endpoint"`
}

// Login is the Mailchimp login (the person) that granted the token.
type Login struct {
	// Email is the login's e-mail address.
	Email string `json:"email"`
	// Avatar is the URL of the login's avatar, if any.
	Avatar string `json:"avatar"`
	// LoginID is the login's numeric id.
	LoginID int64 `json:"login_id"`
	// LoginName is the login's user name.
	LoginName string `json:"login_name"`
	// LoginEmail is the address the login signs in with.
	LoginEmail string `json:"login_email"`
}

// New returns the Mailchimp provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Mailchimp configuration before any user option. It
// sets no scope: Mailchimp has none, a token grants the whole account.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{BrandColor: "#000"})
}

// MapProfile maps a Mailchimp profile to a user: id ← login.login_id, name
// ← accountname, email ← login.email, and no image. A profile without a
// login_id is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: providers.FormatID(p.Login.LoginID), Name: p.AccountName, Email: p.Login.Email}, ID, "profile has no login.login_id")
}
