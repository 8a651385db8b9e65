// Package reddit is the built-in Reddit provider (OAuth 2.0): its
// endpoints and the account record of /api/v1/me, which goes through the
// default mapping (profile.FromClaims: id ← id, name ← name).
//
// Reddit's API rules ask every client for a unique, descriptive
// User-Agent and throttle generic ones, so the userinfo request sends
// UserAgent. Reddit does not implement PKCE; the callback checks state.
//
//	p := reddit.New(providers.OAuthUserConfig[reddit.Profile]{
//		ClientID:     os.Getenv("AUTH_REDDIT_ID"),
//		ClientSecret: os.Getenv("AUTH_REDDIT_SECRET"),
//	})
package reddit

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "reddit"
	// Name is the display name.
	Name = "Reddit"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.reddit.com/api/v1/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://www.reddit.com/api/v1/access_token"
	// UserinfoURL answers the Profile; see Userinfo.
	UserinfoURL = "https://oauth.reddit.com/api/v1/me"
	// Scope lets the token read the user's identity.
	Scope = "identity"
	// UserAgent is the User-Agent of the userinfo request.
	UserAgent = "web:gatehouse:v1 (Go; +https://github.com/gatehouse-auth/gatehouse)"
)

// Profile is the account record of GET /api/v1/me (the fields a sign-in
// needs; the answer has many more).
type Profile struct {
	// ID is the account's id in base 36, without the t2_ prefix.
	ID string `json:"id"`
	// Name is the user name.
	Name string `json:"name"`
	// IconImg is the URL of the user's icon.
	IconImg string `json:"icon_img,omitempty"`
	// SnoovatarImg is the URL of the user's avatar, if any.
	SnoovatarImg string `json:"snoovatar_img,omitempty"`
	// Created is the account's creation time in seconds since the epoch.
	Created float64 `json:"created"`
	// HasVerifiedEmail is true when the account's e-mail is verified;
	// Reddit does not disclose the address.
	HasVerifiedEmail bool `json:"has_verified_email"`
	// Over18 is true when the user has said they are 18 or older.
	Over18 bool `json:"over_18"`
	// TotalKarma is the user's total karma.
	TotalKarma int64 `json:"total_karma"`
}

// New returns the Reddit provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Reddit configuration before any user option. Its
// Profile is nil: the default mapping applies.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults[Profile](ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), nil, providers.Style{BrandColor: "#FF4500"})
	c.Userinfo.Request = Userinfo
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// Userinfo is a GET of r.URL with the Bearer token and UserAgent.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	var p Profile
	header := http.Header{"User-Agent": {UserAgent}}
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, r.URL, r.Tokens.AccessToken, header, nil, &p)
	return p, err
}
