package discord

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// AvatarURL returns the URL of the user's avatar. With no avatar hash it
// is one of Discord's six default avatars,
// CDNURL/embed/avatars/<n>.png, where n is (id >> 22) mod 6 for users
// with discriminator "0" and discriminator mod 5 for the others. Otherwise
// it is CDNURL/avatars/<id>/<hash>.gif for animated hashes (those starting
// with "a_") and .png for the rest.
func AvatarURL(p Profile) string {
	if p.Avatar == "" {
		var n uint64
		if p.Discriminator == "0" || p.Discriminator == "" {
			id, _ := strconv.ParseUint(p.ID, 10, 64)
			n = (id >> 22) % 6
		} else {
			d, _ := strconv.ParseUint(p.Discriminator, 10, 64)
			n = d % 5
		}
		return CDNURL + "/embed/avatars/" + strconv.FormatUint(n, 10) + ".png"
	}
	format := "png"
	if strings.HasPrefix(p.Avatar, "a_") {
		format = "gif"
	}
	return CDNURL + "/avatars/" + p.ID + "/" + p.Avatar + "." + format
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.ID == "" {
		return profile.User{}, errors.New("discord: profile has no id")
	}
	u := profile.User{ID: p.ID, Name: p.GlobalName, Email: p.Email, Image: AvatarURL(p)}
	if u.Name == "" {
		u.Name = p.Username
	}
	return u, nil
}
