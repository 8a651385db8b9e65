package foursquare

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Meta is the status part of a Foursquare v2 answer.
type Meta struct {
	// Code is the HTTP status, 200 on success.
	Code int `json:"code"`
	// RequestID identifies the request for Foursquare's support.
	RequestID string `json:"requestId,omitempty"`
}

// Response is the response part of GET /v2/users/self.
type Response struct {
	// User is the signed-in user.
	User User `json:"user"`
}

// User is a Foursquare user.
type User struct {
	// ID is the user's id (digits, as a string).
	ID string `json:"id"`
	// FirstName is the user's first name.
	FirstName string `json:"firstName,omitempty"`
	// LastName is the user's last name, if given.
	LastName string `json:"lastName,omitempty"`
	// Gender is e.g. "female", "male" or "none".
	Gender string `json:"gender,omitempty"`
	// HomeCity is where the user lives.
	HomeCity string `json:"homeCity,omitempty"`
	// Photo is the user's picture, as a prefix and suffix around a size.
	Photo Photo `json:"photo"`
	// Contact holds the user's contact details.
	Contact Contact `json:"contact"`
}

// Photo is a Foursquare picture: its URL is Prefix + size + Suffix, where
// size is "original" or a width×height such as "100x100".
type Photo struct {
	// Prefix is the URL's start.
	Prefix string `json:"prefix"`
	// Suffix is the URL's end.
	Suffix string `json:"suffix"`
}

// Contact is a Foursquare user's contact details.
type Contact struct {
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Phone is the user's phone number.
	Phone string `json:"phone,omitempty"`
}

// New returns the Foursquare provider configuration with opts laid over
// its defaults by providers.Merge. The userinfo handler sends the merged
// Userinfo.Params (the API version) with the token.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	c := providers.Merge(Defaults(), opts)
	if opts.Userinfo.Request == nil {
		c.Userinfo.Request = FetchProfileWith(c.Userinfo.Params)
	}
	return c
}

// Defaults returns the Foursquare configuration before any user option:
// the endpoints, the API version, the default checks (pkce), FetchProfile,
// MapProfile and the button style. Foursquare takes no scope.
func Defaults() providers.OAuthConfig[Profile] {
	params := map[string]string{"v": APIVersion}
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{BrandColor: "#000", Icon: Icon})
	c.Userinfo.Params = params
	c.Userinfo.Request = FetchProfileWith(params)
	return c
}

// FetchProfile is the userinfo handler with the default API version.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	return FetchProfileWith(map[string]string{"v": APIVersion})(ctx, r)
}

// FetchProfileWith returns a userinfo handler that GETs r.URL
// (UserinfoURL when empty) with params and oauth_token=<access token>
// added to its query. Errors name the URL without the token, so it does
// not reach logs.
func FetchProfileWith(params map[string]string) func(context.Context, providers.UserinfoRequest) (Profile, error) {
	return func(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
		raw := cmp.Or(r.URL, UserinfoURL)
		u, err := url.Parse(raw)
		if err != nil {
			return Profile{}, err
		}
		q := u.Query()
		for k, v := range params {
			q.Set(k, v)
		}
		if q.Get("v") == "" {
			q.Set("v", APIVersion)
		}
		q.Set("oauth_token", r.Tokens.AccessToken)
		u.RawQuery = q.Encode()
		var p Profile
		if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, u.String(), "", nil, nil, &p); err != nil {
			// Keep the token out of the error's URL fields.
			return Profile{}, providers.MaskURL(err, raw)
		}
		return p, nil
	}
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := p.Response.User
	if u.ID == "" {
		return profile.User{}, errors.New("foursquare: profile has no response.user.id")
	}
	user := profile.User{
		ID:    u.ID,
		Name:  profile.FullName(u.FirstName, u.LastName),
		Email: u.Contact.Email,
	}
	if u.Photo.Prefix != "" && u.Photo.Suffix != "" {
		user.Image = u.Photo.Prefix + "original" + u.Photo.Suffix
	}
	return user, nil
}
