package yandex

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: firstNonEmpty(p.DisplayName, p.RealName, p.FirstName)}
	u.Email = p.DefaultEmail
	if u.Email == "" && len(p.Emails) > 0 {
		u.Email = p.Emails[0]
	}
	if !p.IsAvatarEmpty && p.DefaultAvatarID != "" {
		u.Image = AvatarURL(p.DefaultAvatarID, Islands200)
	}
	return u, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
