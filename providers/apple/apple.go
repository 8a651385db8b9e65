// Package apple is the built-in Sign in with Apple provider (OpenID
// Connect).
//
// Apple differs from other OIDC providers in three ways the configuration
// and the sign-in flow account for:
//
//   - The client secret is not a fixed string but an ES256-signed JWT the
//     application makes from its private key (see ClientSecret), valid for
//     at most six months. It is sent in the token request's body
//     (client_secret_post).
//   - When the name or email scope is requested, Apple answers with
//     response_mode=form_post: the callback is a cross-site POST, so the
//     check cookies must be SameSite=None; Secure.
//   - There is no userinfo endpoint: the profile is the ID token's claims.
//     The user's name is sent only once, on the first authorization, as a
//     JSON form field named "user" next to code and state. The sign-in flow
//     adds that form value to the claims as the claim "user" (as the JSON
//     text, or decoded); Profile.User reads it in either form.
package apple

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	ID   = "apple"
	Name = "Apple"
	// Issuer is the ID token issuer and the discovery base.
	Issuer = "https://appleid.apple.com"
	// Scope asks for the name and the e-mail address. Apple requires
	// response_mode=form_post when either is requested.
	Scope = "name email"
	// ResponseMode makes Apple POST the authorization response.
	ResponseMode = "form_post"
	// UserFormField is the form field of the callback POST that carries
	// the user's name on the first authorization.
	UserFormField = "user"
)

// New returns the Sign in with Apple configuration with opts laid over its
// defaults by providers.Merge. ClientID is the Services ID; ClientSecret
// is a JWT from ClientSecret.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(providers.OAuthConfig[Profile]{
		ID:     ID,
		Name:   Name,
		Type:   providers.TypeOIDC,
		Issuer: Issuer,
		Authorization: providers.AuthorizationEndpoint{
			Params: map[string]string{"scope": Scope, "response_mode": ResponseMode},
		},
		// Auth.js uses nonce and state; Apple also honours PKCE (it rejects
		// a token request without code_verifier when the authorization
		// request had a code_challenge), so all three are on.
		Checks: []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		Client: providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost},
		// The profile is the ID token's claims; there is no userinfo
		// endpoint.
		Profile: MapProfile,
		Style:   providers.Style{BrandColor: "#000"},
	}, opts)
}

// Profile is the ID token's claims, with the user form field of the first
// authorization as User.
type Profile struct {
	Iss string `json:"iss,omitempty"`
	Aud string `json:"aud,omitempty"`
	Exp int64  `json:"exp,omitempty"`
	Iat int64  `json:"iat,omitempty"`
	// Sub is the user's stable id for the team.
	Sub      string `json:"sub"`
	Nonce    string `json:"nonce,omitempty"`
	AuthTime int64  `json:"auth_time,omitempty"`
	// Email is the user's address, or a private relay address when
	// IsPrivateEmail.
	Email          string `json:"email,omitempty"`
	EmailVerified  Bool   `json:"email_verified,omitempty"`
	IsPrivateEmail Bool   `json:"is_private_email,omitempty"`
	// RealUserStatus is Apple's guess that the user is real: 0
	// unsupported, 1 unknown, 2 likely real.
	RealUserStatus int    `json:"real_user_status,omitempty"`
	NonceSupported bool   `json:"nonce_supported,omitempty"`
	TransferSub    string `json:"transfer_sub,omitempty"`
	// User is the "user" form field, present on the first authorization
	// only; nil afterwards.
	User *User `json:"user,omitempty"`
}

// User is the JSON of the "user" form field.
type User struct {
	Name  UserName `json:"name"`
	Email string   `json:"email,omitempty"`
}

// UserName is the name in the "user" form field.
type UserName struct {
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
}

// UnmarshalJSON reads the user either as an object or as a string holding
// the form field's JSON text.
func (u *User) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		b = []byte(s)
	}
	type plain User
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("apple: user form field: %w", err)
	}
	*u = User(p)
	return nil
}

// FullName returns "first last", or whichever is set, or "".
func (u *User) FullName() string {
	if u == nil {
		return ""
	}
	return profile.FullName(u.Name.FirstName, u.Name.LastName)
}

// Bool is a boolean claim Apple sends either as a JSON boolean or as the
// string "true" or "false".
type Bool bool

// UnmarshalJSON accepts true, false, "true" and "false" (and null, as
// false).
func (b *Bool) UnmarshalJSON(raw []byte) error {
	switch strings.Trim(string(raw), `"`) {
	case "true":
		*b = true
	case "false", "null", "":
		*b = false
	default:
		return fmt.Errorf("apple: %s is not a boolean", raw)
	}
	return nil
}

// MapProfile is the default mapping: id ← sub; name ← the user form
// field's "first last" on the first authorization, else the e-mail
// address (as Auth.js does; later sign-ins carry no name); email ← email.
// Apple has no picture. EmailVerified is set when email_verified is true.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: p.Sub, Name: p.User.FullName(), Email: p.Email}
	if u.Name == "" {
		u.Name = p.Email
	}
	if u.Email != "" && bool(p.EmailVerified) {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
