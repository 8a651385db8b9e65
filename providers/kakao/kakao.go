// Package kakao is the built-in Kakao provider (OAuth 2.0, Kakao Login).
//
//	p := kakao.New(providers.OAuthUserConfig[kakao.Profile]{
//		ClientID:     os.Getenv("AUTH_KAKAO_ID"),     // the REST API key
//		ClientSecret: os.Getenv("AUTH_KAKAO_SECRET"), // the client secret
//	})
//
// The scope parameter is sent empty: Kakao then asks for the consent
// items configured for the app in Kakao Developers.
package kakao

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "kakao"
	// Name is the display name.
	Name = "Kakao"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://kauth.kakao.com/oauth/authorize"
	// TokenURL exchanges the code for tokens (client_secret_post).
	TokenURL = "https://kauth.kakao.com/oauth/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET.
	UserinfoURL = "https://kapi.kakao.com/v2/user/me"
)

// Profile is the answer of GET /v2/user/me.
type Profile struct {
	// ID is the user's numeric Kakao id.
	ID int64 `json:"id"`
	// ConnectedAt is when the user connected to the app (RFC 3339).
	ConnectedAt string `json:"connected_at,omitempty"`
	// Properties are the app's custom user properties.
	Properties map[string]string `json:"properties,omitempty"`
	// KakaoAccount is the account information the user consented to share.
	KakaoAccount Account `json:"kakao_account"`
}

// Account is the kakao_account member of a Kakao profile.
type Account struct {
	// Profile is the user's Kakao profile (nickname and pictures).
	Profile AccountProfile `json:"profile"`
	// Name is the user's real name.
	Name string `json:"name,omitempty"`
	// Email is the user's Kakao account address.
	Email string `json:"email,omitempty"`
	// IsEmailValid is false when the address is no longer valid.
	IsEmailValid bool `json:"is_email_valid,omitempty"`
	// IsEmailVerified says whether Kakao verified the address.
	IsEmailVerified bool `json:"is_email_verified,omitempty"`
	// AgeRange is e.g. "20~29".
	AgeRange string `json:"age_range,omitempty"`
	// Birthyear is YYYY.
	Birthyear string `json:"birthyear,omitempty"`
	// Birthday is MMDD.
	Birthday string `json:"birthday,omitempty"`
	// Gender is "female" or "male".
	Gender string `json:"gender,omitempty"`
	// PhoneNumber is e.g. "+82 10-1234-5678".
	PhoneNumber string `json:"phone_number,omitempty"`
}

// AccountProfile is the profile member of a Kakao account.
type AccountProfile struct {
	// Nickname is the user's nickname.
	Nickname string `json:"nickname"`
	// ThumbnailImageURL is the 110×110 picture.
	ThumbnailImageURL string `json:"thumbnail_image_url,omitempty"`
	// ProfileImageURL is the 640×640 picture.
	ProfileImageURL string `json:"profile_image_url,omitempty"`
	// IsDefaultImage is true when the picture is Kakao's default.
	IsDefaultImage bool `json:"is_default_image,omitempty"`
}

// New returns the Kakao provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Kakao configuration before any user option: the
// endpoints, an empty scope, the default checks (pkce), client_secret_post
// and MapProfile. Kakao has no button style of its own.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, ""), MapProfile, providers.Style{})
	c.Client = providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}
	return c
}

// MapProfile maps a Kakao user to a user: id ← id (as a string), name ←
// kakao_account.profile.nickname, email ← kakao_account.email, image ←
// kakao_account.profile.profile_image_url.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	a := p.KakaoAccount
	return providers.RequireID(profile.User{
		ID:    providers.FormatID(p.ID),
		Name:  a.Profile.Nickname,
		Email: a.Email,
		Image: a.Profile.ProfileImageURL,
	}, "kakao", "profile has no id")
}
