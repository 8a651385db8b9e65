// Package yandex is the built-in Yandex ID provider (OAuth 2.0): its
// endpoints, its profile record (provider-configuration spec §2.9) and the
// mapping of that profile to a user.
//
//	p := yandex.New(providers.OAuthUserConfig[yandex.Profile]{
//		ClientID:     os.Getenv("AUTH_YANDEX_ID"),
//		ClientSecret: os.Getenv("AUTH_YANDEX_SECRET"),
//	})
package yandex

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "yandex"
	// Name is the display name.
	Name = "Yandex"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://oauth.yandex.ru/authorize"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://oauth.yandex.ru/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://login.yandex.ru/info?format=json"
	// Scope asks for the login, the e-mail addresses and the avatar.
	Scope = "login:info login:email login:avatar"
	// AvatarBaseURL is the base of avatar URLs: AvatarBaseURL/<id>/<size>.
	AvatarBaseURL = "https://avatars.yandex.net/get-yapic"
)

// New returns the Yandex provider configuration with opts laid over its
// defaults by providers.Merge: every set option replaces the default, and
// the type stays "oauth".
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Yandex configuration before any user option: the
// endpoints, the scope, the default checks (pkce), MapProfile and the
// button style.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), MapProfile, providers.Style{BrandColor: "#ffcc00"})
}

// MapProfile is the default mapping of a Yandex profile to a user:
//
//   - id ← id;
//   - name ← display_name, else real_name, else first_name;
//   - email ← default_email, else the first of emails;
//   - image ← the islands-200 avatar URL, unless the avatar is the stub
//     (is_avatar_empty) or there is no default_avatar_id.
//
// Yandex does not say whether an address is verified, so EmailVerified is
// left nil.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.ID, Name: firstNonEmpty(p.DisplayName, p.RealName, p.FirstName)}
	u.Email = p.DefaultEmail
	if u.Email == "" && len(p.Emails) > 0 {
		u.Email = p.Emails[0]
	}
	if !p.IsAvatarEmpty && p.DefaultAvatarID != "" {
		u.Image = AvatarURL(p.DefaultAvatarID, Islands200)
	}
	return u, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
