package eventbrite

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Email is one of an Eventbrite user's addresses.
type Email struct {
	// Email is the address.
	Email string `json:"email"`
	// Verified says whether Eventbrite verified it.
	Verified bool `json:"verified"`
	// Primary marks the user's main address.
	Primary bool `json:"primary"`
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.ID == "" {
		return profile.User{}, errors.New("eventbrite: profile has no id")
	}
	u := profile.User{ID: p.ID, Name: p.Name}
	for _, e := range p.Emails {
		if e.Primary {
			u.Email = e.Email
			break
		}
	}
	if p.ImageID != "" {
		u.Image = fmt.Sprintf(ImageURLFormat, p.ImageID)
	}
	return u, nil
}
