package mattermost

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	name := p.Username
	if name == "" {
		name = profile.FullName(p.FirstName, p.LastName)
	}
	return profile.User{ID: p.ID, Name: name, Email: p.Email}, nil
}
