package logto

import (
	"context"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile maps Logto claims to a user: id ← sub, name ← name, else
// username, email ← email, image ← picture. EmailVerified is set to now
// when Logto asserts email_verified, as the default OpenID Connect mapping
// does.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.Sub == "" {
		return profile.User{}, errors.New("logto: claims have no sub")
	}
	u := profile.User{ID: p.Sub, Name: p.Name, Email: p.Email, Image: p.Picture}
	if u.Name == "" {
		u.Name = p.Username
	}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
