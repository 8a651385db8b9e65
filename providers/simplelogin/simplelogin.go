package simplelogin

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile maps SimpleLogin's claims to a user: id ← sub, name ← name,
// email ← email, image ← avatar_url. EmailVerified is set when
// email_verified is true, as the default OpenID Connect mapping does.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.Sub, Name: p.Name, Email: p.Email, Image: p.AvatarURL}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
