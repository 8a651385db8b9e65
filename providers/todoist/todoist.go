package todoist

import (
	"context"
	"errors"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Userinfo is a POST of the form sync_token=* and resource_types=["user"]
// to r.URL with the Bearer token. It returns the answer's user member.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	form := url.Values{"sync_token": {"*"}, "resource_types": {`["user"]`}}
	var answer struct {
		User *Profile `json:"user"`
	}
	if err := providers.PostForm(ctx, r.HTTPClient, r.URL, r.Tokens.AccessToken, form, &answer); err != nil {
		return Profile{}, err
	}
	if answer.User == nil {
		return Profile{}, errors.New("todoist: the sync answer has no user")
	}
	return *answer.User, nil
}
