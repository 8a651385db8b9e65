// Package mailru is the built-in Mail.ru provider (OAuth 2.0): its
// endpoints and the record its userinfo endpoint answers. The profile goes
// through the default mapping (profile.FromClaims).
//
//	p := mailru.New(providers.OAuthUserConfig[mailru.Profile]{
//		ClientID:     os.Getenv("AUTH_MAILRU_ID"),
//		ClientSecret: os.Getenv("AUTH_MAILRU_SECRET"),
//	})
package mailru

import "github.com/gatehouse-auth/gatehouse/providers"

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "mailru"
	// Name is the display name.
	Name = "Mail.ru"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://oauth.mail.ru/login"
	// TokenURL exchanges the code for tokens (client_secret_basic).
	TokenURL = "https://oauth.mail.ru/token"
	// UserinfoURL answers the Profile to a Bearer GET.
	UserinfoURL = "https://oauth.mail.ru/userinfo"
	// Scope asks for the user's basic information and e-mail address.
	Scope = "userinfo"
)

// Profile is the answer of the Mail.ru userinfo endpoint.
type Profile struct {
	// ID is the user's unique id at Mail.ru.
	ID string `json:"id"`
	// ClientID is the application the token was issued to.
	ClientID string `json:"client_id"`
	// Gender is "m", "f" or empty.
	Gender string `json:"gender,omitempty"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// Nickname is the user's nickname.
	Nickname string `json:"nickname,omitempty"`
	// Locale is the user's locale, e.g. "ru_RU".
	Locale string `json:"locale,omitempty"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Birthday is the date of birth as DD.MM.YYYY.
	Birthday string `json:"birthday,omitempty"`
	// Image is the URL of the user's picture. The default mapping reads
	// picture, so it does not become the user's image.
	Image string `json:"image,omitempty"`
	// Email is the user's e-mail address.
	Email string `json:"email,omitempty"`
}

// New returns the Mail.ru provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Mail.ru configuration before any user option. Its
// Profile is nil: the default mapping gives id ← id, name ← name, else
// nickname, email ← email.
func Defaults() providers.OAuthConfig[Profile] {
	return providers.OAuthDefaults[Profile](ID, Name, providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope), nil, providers.Style{})
}
