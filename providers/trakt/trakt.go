package trakt

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/providers"
)

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
