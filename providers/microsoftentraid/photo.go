package microsoftentraid

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// GraphURL is the base of Microsoft Graph v1.0.
const GraphURL = "https://graph.microsoft.com/v1.0"

// PhotoSizes are the sizes of the square profile photo Graph serves.
var PhotoSizes = []int{48, 64, 96, 120, 240, 360, 432, 504, 648}

// PhotoProfile returns a profile mapping that is profile.FromClaims plus
// the user's profile photo of the given size (one of PhotoSizes) as the
// image, in a data: URL: GET <Graph>/me/photos/<size>x<size>/$value with
// the access token (it needs the User.Read scope). Auth.js does this by
// default; Gatehouse leaves it opt-in because the data: URL makes the user
// record, and a JWT session holding it, larger by several kilobytes. A
// user without a photo, or a failed request, gives no image. client nil
// means http.DefaultClient.
func PhotoProfile(size int, client *http.Client) (profile.Callback[profile.Claims], error) {
	return photoProfile(GraphURL, size, client)
}

func photoProfile(graph string, size int, client *http.Client) (profile.Callback[profile.Claims], error) {
	if !slices.Contains(PhotoSizes, size) {
		return nil, fmt.Errorf("microsoftentraid: photo size %d is not one of %v", size, PhotoSizes)
	}
	if client == nil {
		client = http.DefaultClient
	}
	u := fmt.Sprintf("%s/me/photos/%dx%d/$value", graph, size, size)
	return func(ctx context.Context, c profile.Claims, tokens account.TokenSet) (profile.User, error) {
		user := profile.FromClaims(c)
		if tokens.AccessToken != "" {
			user.Image = fetchPhoto(ctx, client, u, tokens.AccessToken)
		}
		return user, nil
	}, nil
}

// fetchPhoto returns the photo at u as a data: URL, or "" on any failure.
func fetchPhoto(ctx context.Context, client *http.Client, u, accessToken string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return ""
	}
	req.Header.Set("Authorization", "Bearer "+accessToken)
	resp, err := client.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	if err != nil || len(b) == 0 || len(b) > providers.MaxResponseBytes {
		return ""
	}
	// Graph serves JPEG; only a plain image/* type replaces that in the
	// URL.
	ct := "image/jpeg"
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "image/") {
		ct = mt
	}
	return "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString(b)
}
