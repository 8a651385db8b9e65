// Package eventbrite is the built-in Eventbrite provider (OAuth 2.0).
//
//	p := eventbrite.New(providers.OAuthUserConfig[eventbrite.Profile]{
//		ClientID:     os.Getenv("AUTH_EVENTBRITE_ID"),     // the API key
//		ClientSecret: os.Getenv("AUTH_EVENTBRITE_SECRET"), // the client secret
//	})
package eventbrite

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "eventbrite"
	// Name is the display name.
	Name = "Eventbrite"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://www.eventbrite.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post).
	TokenURL = "https://www.eventbrite.com/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://www.eventbriteapi.com/v3/users/me/"
	// Scope lets the token read the user's profile.
	Scope = "user.profile"
	// ImageURLFormat is the user's picture URL, with the image_id for %s:
	// Eventbrite's image service serving the original upload.
	ImageURLFormat = "https://img.evbuc.com/https%%3A%%2F%%2Fcdn.evbuc.com%%2Fimages%%2F%s%%2F1%%2Foriginal.jpg"
)

// Profile is the answer of GET /v3/users/me/.
type Profile struct {
	// ID is the user's id (digits, as a string).
	ID string `json:"id"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Emails are the user's addresses; one is marked primary.
	Emails []Email `json:"emails,omitempty"`
	// IsPublic is true when the profile is public.
	IsPublic bool `json:"is_public,omitempty"`
	// ImageID is the id of the user's picture, if any.
	ImageID string `json:"image_id,omitempty"`
}

// Email is one of an Eventbrite user's addresses.
type Email struct {
	// Email is the address.
	Email string `json:"email"`
	// Verified says whether Eventbrite verified it.
	Verified bool `json:"verified"`
	// Primary marks the user's main address.
	Primary bool `json:"primary"`
}

// New returns the Eventbrite provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Eventbrite configuration before any user option:
// the endpoints, the scope, the default checks (pkce), client_secret_post,
// MapProfile and the button style.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#f05537"})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps an Eventbrite user to a user: id ← id, name ← name,
// email ← the address marked primary (none when no address is), image ←
// the image_id's picture (none without one).
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
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
