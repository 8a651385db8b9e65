package yandex

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile is the default mapping of a Yandex profile to a user:
//
//   - id ← id;
//   - name ← display_name, else real_name, else first_name;
//   - email ← default_email, else the first of emails;
//   - image ← the islands-200 avatar URL, unless the avatar is the stub
//     (is_avatar_empty) or there is no default_avatar_id.
//
// Yandex does not say whether an address is verified, so EmailVerified is
// left nil.
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
