package pinterest

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.ID
	if id == "" {
		id = p.Username
	}
	return profile.User{ID: id, Name: p.Username, Image: p.ProfileImage}, nil
}
