package pinterest

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile maps a Pinterest account to a user: id ← id, else username;
// name ← username; no e-mail (Pinterest does not give it); image ←
// profile_image.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.ID
	if id == "" {
		id = p.Username
	}
	return profile.User{ID: id, Name: p.Username, Image: p.ProfileImage}, nil
}
