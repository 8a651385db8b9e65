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

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.ResultCode != "" && p.ResultCode != "00" {
		return profile.User{}, fmt.Errorf("naver: profile API answered %s: %s", p.ResultCode, p.Message)
	}
	m := p.Response
	return profile.User{ID: m.ID, Name: m.Nickname, Email: m.Email, Image: m.ProfileImage}, nil
}
