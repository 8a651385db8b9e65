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

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, tokens account.TokenSet) (profile.User, error) {
	email := p.Email
	if email == "" {
		email, _ = tokens.Extra["email"].(string)
	}
	return providers.RequireID(profile.User{ID: providers.FormatID(p.ID), Name: profile.FullName(p.FirstName, p.LastName), Email: email, Image: p.Photo100}, ID, "profile has no id")
}
