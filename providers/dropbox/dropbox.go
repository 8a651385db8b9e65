package dropbox

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/providers"
)

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
