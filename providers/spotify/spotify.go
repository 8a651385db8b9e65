package spotify

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Image is one profile image.
type Image struct {
	// URL is the image's address.
	URL string `json:"url"`
	// Height is the height in pixels, if known.
	Height int `json:"height,omitempty"`
	// Width is the width in pixels, if known.
	Width int `json:"width,omitempty"`
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: p.DisplayName, Email: p.Email}
	if len(p.Images) > 0 {
		u.Image = p.Images[0].URL
	}
	return u, nil
}
