package mattermost

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile maps a Mattermost user to a user: id ← id, name ← username,
// else "first_name last_name", email ← email, no image.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	name := p.Username
	if name == "" {
		name = profile.FullName(p.FirstName, p.LastName)
	}
	return profile.User{ID: p.ID, Name: name, Email: p.Email}, nil
}
