// Package dropbox is the built-in Dropbox provider (OAuth 2.0). Dropbox's
// account endpoint is an RPC call: a POST, not a GET, which FetchProfile
// makes.
//
//	p := dropbox.New(providers.OAuthUserConfig[dropbox.Profile]{
//		ClientID:     os.Getenv("AUTH_DROPBOX_ID"),     // the app key
//		ClientSecret: os.Getenv("AUTH_DROPBOX_SECRET"), // the app secret
//	})
package dropbox

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "dropbox"
	// Name is the display name.
	Name = "Dropbox"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.dropbox.com/oauth2/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.dropboxapi.com/oauth2/token"
	// UserinfoURL answers the Profile as JSON to a Bearer POST with no
	// body.
	UserinfoURL = "https://api.dropboxapi.com/2/users/get_current_account"
	// Scope lets the token read the account's information.
	Scope = "account_info.read"
	// TokenAccessType "offline" asks for a refresh token besides the
	// short-lived access token.
	TokenAccessType = "offline"
)

// Profile is the answer of POST /2/users/get_current_account.
type Profile struct {
	// AccountID is the user's account id, e.g. "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc".
	AccountID string `json:"account_id"`
	// Name is the user's name in its several forms.
	Name AccountName `json:"name"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// EmailVerified says whether Dropbox verified Email.
	EmailVerified bool `json:"email_verified,omitempty"`
	// Disabled is true when the account has been disabled.
	Disabled bool `json:"disabled,omitempty"`
	// Locale is the user's language, e.g. "en".
	Locale string `json:"locale,omitempty"`
	// ReferralLink is the user's referral link.
	ReferralLink string `json:"referral_link,omitempty"`
	// IsPaired is true when a work account is paired with this one.
	IsPaired bool `json:"is_paired,omitempty"`
	// ProfilePhotoURL is the URL of the user's photo, if any.
	ProfilePhotoURL string `json:"profile_photo_url,omitempty"`
	// Country is the user's country, ISO 3166-2.
	Country string `json:"country,omitempty"`
	// AccountType is the account's plan: {".tag": "basic" | "pro" | "business"}.
	AccountType Tag `json:"account_type,omitzero"`
}

// AccountName is a Dropbox user's name.
type AccountName struct {
	// GivenName is the user's first name.
	GivenName string `json:"given_name,omitempty"`
	// Surname is the user's last name.
	Surname string `json:"surname,omitempty"`
	// FamiliarName is a locale-dependent name, usually the given name.
	FamiliarName string `json:"familiar_name,omitempty"`
	// DisplayName is the name to show.
	DisplayName string `json:"display_name,omitempty"`
	// AbbreviatedName is the user's initials.
	AbbreviatedName string `json:"abbreviated_name,omitempty"`
}

// Tag is a Dropbox union value with no data.
type Tag struct {
	// Tag is the union's variant.
	Tag string `json:".tag"`
}

// New returns the Dropbox provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Dropbox configuration before any user option: the
// endpoints, the scope and token_access_type, the default checks (pkce),
// FetchProfile, MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"scope": Scope, "token_access_type": TokenAccessType},
	}, MapProfile, providers.Style{BrandColor: "#0061fe"})
	c.Userinfo.Request = FetchProfile
	return c
}

// FetchProfile is the userinfo handler: a POST to r.URL (UserinfoURL when
// empty) with the access token as a Bearer token and no body, as Dropbox's
// RPC endpoints without arguments want.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	u := r.URL
	if u == "" {
		u = UserinfoURL
	}
	var p Profile
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodPost, u, r.Tokens.AccessToken, nil, nil, &p); err != nil {
		return Profile{}, err
	}
	return p, nil
}

// MapProfile maps a Dropbox account to a user: id ← account_id, name ←
// name.display_name, email ← email, image ← profile_photo_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.AccountID, Name: p.Name.DisplayName, Email: p.Email, Image: p.ProfilePhotoURL}, ID, "profile has no account_id")
}
