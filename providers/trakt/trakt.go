// Package trakt is the built-in Trakt provider (OAuth 2.0): its endpoints,
// the user settings record, and the mapping of that record to a user.
//
// Every Trakt API request names the API version and the application
// (trakt-api-version: 2, trakt-api-key: the client id), so the userinfo
// request is a handler that sends those headers.
//
//	p := trakt.New(providers.OAuthUserConfig[trakt.Profile]{
//		ClientID:     os.Getenv("AUTH_TRAKT_ID"),
//		ClientSecret: os.Getenv("AUTH_TRAKT_SECRET"),
//	})
package trakt

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
	ID = "trakt"
	// Name is the display name.
	Name = "Trakt"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://trakt.tv/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.trakt.tv/oauth/token"
	// UserinfoURL answers the Profile; see Userinfo.
	UserinfoURL = "https://api.trakt.tv/users/me?extended=full"
	// APIVersion is the trakt-api-version header's value.
	APIVersion = "2"
)

// Profile is the answer of GET /users/me?extended=full.
type Profile struct {
	// Username is the user's name.
	Username string `json:"username"`
	// Private is true for a private profile.
	Private bool `json:"private"`
	// Name is the user's full name.
	Name string `json:"name"`
	// VIP is true for a VIP member.
	VIP bool `json:"vip"`
	// VIPEP is true for a VIP executive producer.
	VIPEP bool `json:"vip_ep"`
	// IDs are the user's ids.
	IDs IDs `json:"ids"`
	// JoinedAt is when the account was created (RFC 3339).
	JoinedAt string `json:"joined_at,omitempty"`
	// Location is the user's location.
	Location string `json:"location,omitempty"`
	// About is the user's description.
	About string `json:"about,omitempty"`
	// Gender is the user's gender.
	Gender string `json:"gender,omitempty"`
	// Age is the user's age.
	Age int `json:"age,omitempty"`
	// Images holds the user's avatar.
	Images Images `json:"images"`
}

// IDs are a Trakt user's ids.
type IDs struct {
	// Slug is the user's URL-safe id.
	Slug string `json:"slug"`
}

// Images holds a Trakt user's avatar.
type Images struct {
	// Avatar is the avatar.
	Avatar struct {
		// Full is the avatar's URL.
		Full string `json:"full"`
	} `json:"avatar"`
}

// New returns the Trakt provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Trakt configuration before any user option. The
// scope parameter is sent empty: Trakt has no scopes.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, ""), MapProfile, providers.Style{BrandColor: "#ED2224"})
	c.Userinfo.Request = Userinfo
	return c
}

// Userinfo is a GET of r.URL with the Bearer token, trakt-api-version:
// APIVersion and trakt-api-key: the client id.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	header := http.Header{
		"Trakt-Api-Version": {APIVersion},
		"Trakt-Api-Key":     {r.ClientID},
	}
	var p Profile
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, r.URL, r.Tokens.AccessToken, header, nil, &p)
	return p, err
}

// MapProfile maps a Trakt user to a user: id ← ids.slug, name ← name, no
// e-mail (Trakt does not give it), image ← images.avatar.full.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.IDs.Slug, Name: p.Name, Image: p.Images.Avatar.Full}, nil
}
