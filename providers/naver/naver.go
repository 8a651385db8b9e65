// Package naver is the built-in Naver provider (OAuth 2.0): its endpoints,
// the record its profile API answers, and the mapping of that record to a
// user.
//
// Naver's login API differs from Auth.js's configuration, which follows
// the defaults, in three documented ways, and this package follows Naver:
// the authorization request must carry a state (so the callback checks
// state; Naver does not implement PKCE); the token request carries the
// client credentials and that same state as form parameters; and a failed
// token request is answered 200 with an error member, which Exchange turns
// into an error.
//
//	p := naver.New(providers.OAuthUserConfig[naver.Profile]{
//		ClientID:     os.Getenv("AUTH_NAVER_ID"),
//		ClientSecret: os.Getenv("AUTH_NAVER_SECRET"),
//	})
package naver

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "naver"
	// Name is the display name.
	Name = "Naver"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://nid.naver.com/oauth2.0/authorize"
	// TokenURL exchanges the code for tokens; see Exchange.
	TokenURL = "https://nid.naver.com/oauth2.0/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://openapi.naver.com/v1/nid/me"
)

// Profile is the answer of the profile API: a result code and message,
// and the member in response.
type Profile struct {
	// ResultCode is "00" on success.
	ResultCode string `json:"resultcode"`
	// Message is "success" on success.
	Message string `json:"message"`
	// Response is the member.
	Response Member `json:"response"`
}

// Member is a Naver member's profile. Which fields are present depends on
// what the user agreed to share.
type Member struct {
	// ID is the member's unique id for this application.
	ID string `json:"id"`
	// Nickname is the member's nickname.
	Nickname string `json:"nickname,omitempty"`
	// Name is the member's name.
	Name string `json:"name,omitempty"`
	// Email is the member's e-mail address.
	Email string `json:"email,omitempty"`
	// Gender is "F", "M" or "U" (unknown).
	Gender string `json:"gender,omitempty"`
	// Age is an age range, e.g. "20-29".
	Age string `json:"age,omitempty"`
	// Birthday is MM-DD.
	Birthday string `json:"birthday,omitempty"`
	// Birthyear is YYYY.
	Birthyear string `json:"birthyear,omitempty"`
	// ProfileImage is the URL of the member's picture.
	ProfileImage string `json:"profile_image,omitempty"`
	// Mobile is the member's mobile phone number.
	Mobile string `json:"mobile,omitempty"`
}

// New returns the Naver provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Naver configuration before any user option. It sets
// no scope: Naver's permissions are chosen in the application's settings.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{})
	c.Token.Request = Exchange
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// Exchange is the token request Naver documents: a POST to r.URL whose
// form holds grant_type, client_id, client_secret, code and the state of
// the callback. An answer with an error member and no access token is an
// error.
func Exchange(ctx context.Context, r providers.TokenRequest) (account.TokenSet, error) {
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"client_id":     {r.ClientID},
		"client_secret": {r.ClientSecret},
		"code":          {r.Code},
		"state":         {r.Params.Get("state")},
	}
	var t account.TokenSet
	if err := providers.PostForm(ctx, r.HTTPClient, r.URL, "", form, &t); err != nil {
		return account.TokenSet{}, err
	}
	if t.AccessToken == "" {
		return account.TokenSet{}, fmt.Errorf("naver: token request failed: %v: %v", t.Extra["error"], t.Extra["error_description"])
	}
	t.Normalize(time.Now())
	return t, nil
}

// MapProfile maps a Naver profile to a user: id ← response.id, name ←
// response.nickname, email ← response.email, image ←
// response.profile_image. An answer whose resultcode is not "00" is an
// error.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.ResultCode != "" && p.ResultCode != "00" {
		return profile.User{}, fmt.Errorf("naver: profile API answered %s: %s", p.ResultCode, p.Message)
	}
	m := p.Response
	return profile.User{ID: m.ID, Name: m.Nickname, Email: m.Email, Image: m.ProfileImage}, nil
}
