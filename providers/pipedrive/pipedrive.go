// Package pipedrive is the built-in Pipedrive provider (OAuth 2.0): its
// endpoints, the user record, and the mapping of that record to a user.
//
// Pipedrive serves each company's API at its own domain, which the token
// response names (api_domain); the userinfo handler reads
// <api_domain>/api/v1/users/me there, and UserinfoURL only when the token
// response has no api_domain. Auth.js's userinfo URL,
// https://api.pipedrive.com/users/me, lacks the /v1 of Pipedrive's API
// paths.
//
//	p := pipedrive.New(providers.OAuthUserConfig[pipedrive.Profile]{
//		ClientID:     os.Getenv("AUTH_PIPEDRIVE_ID"),
//		ClientSecret: os.Getenv("AUTH_PIPEDRIVE_SECRET"),
//	})
package pipedrive

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "pipedrive"
	// Name is the display name.
	Name = "Pipedrive"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://oauth.pipedrive.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://oauth.pipedrive.com/oauth/token"
	// UserinfoURL answers the Profile when the token response has no
	// api_domain; see Userinfo.
	UserinfoURL = "https://api.pipedrive.com/v1/users/me"
	// UserinfoPath is the path of the user record under api_domain.
	UserinfoPath = "/api/v1/users/me"
)

// Profile is the answer of GET /v1/users/me: a success flag and the user
// in data.
type Profile struct {
	// Success is true for a successful answer.
	Success bool `json:"success"`
	// Data is the user.
	Data User `json:"data"`
}

// User is a Pipedrive user. Pipedrive advises keying accounts on the user
// id and the company id together; MapProfile uses the user id alone, as
// Auth.js does.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Name is the user's name.
	Name string `json:"name"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// IconURL is the user's picture, if any.
	IconURL string `json:"icon_url,omitempty"`
	// Locale is the user's locale, e.g. "en_US".
	Locale string `json:"locale,omitempty"`
	// DefaultCurrency is the user's currency, e.g. "USD".
	DefaultCurrency string `json:"default_currency,omitempty"`
	// TimezoneName is the user's IANA time zone.
	TimezoneName string `json:"timezone_name,omitempty"`
	// Activated is true for an activated user.
	Activated bool `json:"activated"`
	// IsAdmin is 1 for a company administrator.
	IsAdmin int `json:"is_admin"`
	// CompanyID is the id of the company the token is for.
	CompanyID int64 `json:"company_id"`
	// CompanyName is that company's name.
	CompanyName string `json:"company_name,omitempty"`
	// CompanyDomain is that company's subdomain.
	CompanyDomain string `json:"company_domain,omitempty"`
}

// New returns the Pipedrive provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Pipedrive configuration before any user option. It
// sets no scope: a Pipedrive app's scopes are chosen in its settings.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{})
	c.Userinfo.Request = Userinfo
	return c
}

// Userinfo is a Bearer GET of <api_domain>/api/v1/users/me, where
// api_domain is the token response's absolute http(s) URL of the
// company's API, or of r.URL when there is none.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	target := r.URL
	if d, _ := r.Tokens.Extra["api_domain"].(string); d != "" {
		if u, err := url.Parse(d); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			target = strings.TrimRight(d, "/") + UserinfoPath
		}
	}
	var p Profile
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, target, r.Tokens.AccessToken, nil, nil, &p)
	return p, err
}

// MapProfile maps a Pipedrive user to a user: id ← data.id (as a string),
// name ← data.name, email ← data.email, image ← data.icon_url. A profile
// without a data.id is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	d := p.Data
	return providers.RequireID(profile.User{ID: providers.FormatID(d.ID), Name: d.Name, Email: d.Email, Image: d.IconURL}, ID, "profile has no data.id")
}
