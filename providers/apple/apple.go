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
		Style:   providers.Style{BrandColor: "#000", Icon: Icon},
	}, opts)
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

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
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
