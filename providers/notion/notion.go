package notion

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Person is the person part of a Notion user.
type Person struct {
	// Email is the person's e-mail address.
	Email string `json:"email"`
}

// Userinfo is a GET of r.URL with the Bearer token and Notion-Version:
// APIVersion. It returns the bot's owner, and an error when the owner is
// not a user (a workspace-owned token).
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	var me struct {
		Bot struct {
			Owner struct {
				Type string   `json:"type"`
				User *Profile `json:"user"`
			} `json:"owner"`
		} `json:"bot"`
	}
	header := http.Header{"Notion-Version": {APIVersion}}
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, r.URL, r.Tokens.AccessToken, header, nil, &me); err != nil {
		return Profile{}, err
	}
	if me.Bot.Owner.User == nil {
		return Profile{}, fmt.Errorf("notion: the token's owner is a %q, not a user", me.Bot.Owner.Type)
	}
	return *me.Bot.Owner.User, nil
}
