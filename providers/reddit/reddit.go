package reddit

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Userinfo is a GET of r.URL with the Bearer token and UserAgent.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	var p Profile
	header := http.Header{"User-Agent": {UserAgent}}
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, r.URL, r.Tokens.AccessToken, header, nil, &p)
	return p, err
}
