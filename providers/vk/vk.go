// Package vk is the built-in VK provider (OAuth 2.0 at oauth.vk.com, VK
// API version 5.131): its endpoints, the user record of users.get, and the
// mapping of that record to a user.
//
// VK gives the e-mail address in the token response (email), not in the
// user record, so MapProfile reads it from the token set. users.get
// answers a list, and errors with status 200, so the userinfo request is a
// handler that takes response[0] and turns an error member into an error.
//
// Auth.js's table lists PKCE as VK's check, which oauth.vk.com does not
// implement (later Auth.js versions switched all checks off); PKCE that
// the server ignores protects nothing, so here the callback checks state.
//
//	p := vk.New(providers.OAuthUserConfig[vk.Profile]{
//		ClientID:     os.Getenv("AUTH_VK_ID"),
//		ClientSecret: os.Getenv("AUTH_VK_SECRET"),
//	})
package vk

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "vk"
	// Name is the display name.
	Name = "VK"
	// APIVersion is the VK API version every URL names.
	APIVersion = "5.131"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://oauth.vk.com/authorize?v=" + APIVersion
	// TokenURL exchanges the code for tokens, with the client credentials
	// in the form (client_secret_post).
	TokenURL = "https://oauth.vk.com/access_token?v=" + APIVersion
	// UserinfoURL is users.get for the token's user, with photo_100; see
	// Userinfo.
	UserinfoURL = "https://api.vk.com/method/users.get?fields=photo_100&v=" + APIVersion
	// Scope asks for the user's e-mail address.
	Scope = "email"
)

// Profile is a VK user object (the fields a sign-in needs), with the
// e-mail address, which VK gives only in the token response.
type Profile struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name"`
	// LastName is the user's last name.
	LastName string `json:"last_name"`
	// Photo100 is the user's square 100-pixel photo.
	Photo100 string `json:"photo_100"`
	// ScreenName is the user's short address, if asked for.
	ScreenName string `json:"screen_name,omitempty"`
	// CanAccessClosed is true when the token may see a closed profile.
	CanAccessClosed bool `json:"can_access_closed"`
	// IsClosed is true for a closed (private) profile.
	IsClosed bool `json:"is_closed"`
	// Deactivated is "deleted" or "banned" for such a profile.
	Deactivated string `json:"deactivated,omitempty"`
	// Email is empty in users.get answers: MapProfile takes the address
	// from the token response. A custom userinfo handler may fill it.
	Email string `json:"email,omitempty"`
}

// New returns the VK provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the VK configuration before any user option.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#07F"})
	c.Userinfo.Request = Userinfo
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// Userinfo is a GET of r.URL with the Bearer token. It returns the first
// user of the answer's response list, and an error for an error answer or
// an empty list.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	var answer struct {
		Response []Profile `json:"response"`
		Error    *struct {
			Code int    `json:"error_code"`
			Msg  string `json:"error_msg"`
		} `json:"error"`
	}
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, r.URL, r.Tokens.AccessToken, nil, nil, &answer); err != nil {
		return Profile{}, err
	}
	if e := answer.Error; e != nil {
		return Profile{}, fmt.Errorf("vk: users.get answered error %d: %s", e.Code, e.Msg)
	}
	if len(answer.Response) == 0 {
		return Profile{}, errors.New("vk: users.get answered no user")
	}
	return answer.Response[0], nil
}

// MapProfile maps a VK user to a user: id ← id (as a string), name ←
// "first_name last_name", email ← the token response's email (or the
// profile's, when set), image ← photo_100. A profile without an id is
// refused.
func MapProfile(_ context.Context, p Profile, tokens account.TokenSet) (profile.User, error) {
	email := p.Email
	if email == "" {
		email, _ = tokens.Extra["email"].(string)
	}
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: profile.FullName(p.FirstName, p.LastName), Email: email, Image: p.Photo100}, ID, "profile has no id")
}
