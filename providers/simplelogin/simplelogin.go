package simplelogin

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.Sub, Name: p.Name, Email: p.Email, Image: p.AvatarURL}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
