package bitbucket

import (
	"context"
	"errors"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Links are a Bitbucket user's links.
type Links struct {
	// Self is the user's API URL.
	Self Link `json:"self,omitzero"`
	// HTML is the user's profile page.
	HTML Link `json:"html,omitzero"`
	// Avatar is the user's avatar picture.
	Avatar Link `json:"avatar,omitzero"`
}

// Link is one Bitbucket link.
type Link struct {
	// Href is the link's URL.
	Href string `json:"href"`
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.AccountID == "" {
		return profile.User{}, errors.New("bitbucket: profile has no account_id")
	}
	u := profile.User{ID: p.AccountID, Name: p.DisplayName, Image: p.Links.Avatar.Href}
	if u.Name == "" {
		u.Name = p.Username
	}
	return u, nil
}
