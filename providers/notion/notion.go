// Package notion is the built-in Notion provider (OAuth 2.0 for public
// integrations): its endpoints, the user record, and the mapping of that
// record to a user.
//
// A Notion token belongs to a bot; the person who authorised it is the
// bot's owner. The userinfo handler reads GET /v1/users/me (with the
// Notion-Version header Notion requires) and returns bot.owner.user.
// Auth.js configures /v1/users as the userinfo URL but fetches
// /v1/users/me regardless; here the URL is the one fetched, so overriding
// it works.
//
//	p := notion.New(providers.OAuthUserConfig[notion.Profile]{
//		ClientID:     os.Getenv("AUTH_NOTION_ID"),
//		ClientSecret: os.Getenv("AUTH_NOTION_SECRET"),
//	})
package notion

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "notion"
	// Name is the display name.
	Name = "Notion"
	// AuthorizationURL is where the user picks the pages to share.
	AuthorizationURL = "https://api.notion.com/v1/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://api.notion.com/v1/oauth/token"
	// UserinfoURL answers the token's bot user; see Userinfo.
	UserinfoURL = "https://api.notion.com/v1/users/me"
	// APIVersion is the Notion-Version header the userinfo request sends.
	APIVersion = "2022-06-28"
)

// Profile is a Notion user of type "person".
type Profile struct {
	// Object is always "user".
	Object string `json:"object"`
	// ID is the user's unique id (a UUID).
	ID string `json:"id"`
	// Type is "person" (or "bot").
	Type string `json:"type"`
	// Name is the user's name.
	Name string `json:"name"`
	// AvatarURL is the user's avatar, if any.
	AvatarURL string `json:"avatar_url"`
	// Person holds a person's e-mail address; present when the
	// integration may read user e-mail addresses.
	Person Person `json:"person"`
}

// Person is the person part of a Notion user.
type Person struct {
	// Email is the person's e-mail address.
	Email string `json:"email"`
}

// New returns the Notion provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Notion configuration before any user option. The
// authorization request asks for a user-owned token (owner=user); there
// is no scope: the user picks the pages to share.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"owner": "user"},
	}, MapProfile, providers.Style{BrandColor: "#fff"})
	c.Userinfo.Request = Userinfo
	return c
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

// MapProfile maps a Notion user to a user: id ← id, name ← name, email ←
// person.email, image ← avatar_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return profile.User{ID: p.ID, Name: p.Name, Email: p.Person.Email, Image: p.AvatarURL}, nil
}
