// Package profile holds the user record that every sign-in produces and the
// default reductions of a provider's profile to it (the Auth.js "profile"
// and "user" records).
package profile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
)

// User is what the application knows of a signed-in person. The default
// reductions keep id, name, email and image.
type User struct {
	// ID is the user's id: the provider's subject when it comes from a
	// profile mapping, the database id once stored.
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
	Image string `json:"image,omitempty"`
	// EmailVerified is when the e-mail address was last proved to belong to
	// the user; nil when never. A profile mapping sets it only when the
	// provider asserts it (OIDC email_verified).
	EmailVerified *time.Time `json:"emailVerified,omitempty"`
}

// Callback maps a provider's profile and token set to a User (Auth.js's
// profile callback). An error ends the sign-in cleanly with that error.
type Callback[P any] func(ctx context.Context, p P, tokens account.TokenSet) (User, error)

// Claims is a profile given as a JSON object, as OpenID Connect ID tokens
// and userinfo answers are.
type Claims map[string]any

// String returns the claim as a string: strings as they are, numbers in
// their shortest decimal form (some providers send numeric ids), "" when
// absent or of another type.
func (c Claims) String(name string) string {
	switch v := c[name].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprintf("%.0f", v)
	case int64:
		return fmt.Sprint(v)
	case int:
		return fmt.Sprint(v)
	}
	return ""
}

// Bool returns a boolean claim; strings "true"/"false" count, as some
// providers send email_verified as a string.
func (c Claims) Bool(name string) bool {
	switch v := c[name].(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	return false
}

// First returns the first non-empty claim of names, as String reads it.
func (c Claims) First(names ...string) string {
	for _, n := range names {
		if s := c.String(n); s != "" {
			return s
		}
	}
	return ""
}

// FromClaims is the default mapping of OpenID Connect claims (and of OAuth
// profiles shaped like them): id ← sub, else id; name ← name, else
// nickname, else preferred_username; email ← email; image ← picture.
// EmailVerified is set to now only when email_verified is true.
func FromClaims(c Claims) User {
	u := User{
		ID:    c.First("sub", "id"),
		Name:  c.First("name", "nickname", "preferred_username"),
		Email: c.String("email"),
		Image: c.String("picture"),
	}
	if u.Email != "" && c.Bool("email_verified") {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u
}

// DefaultOIDC is FromClaims as a Callback, the default for OIDC providers
// and for OAuth providers that define no mapping of their own.
func DefaultOIDC(_ context.Context, c Claims, _ account.TokenSet) (User, error) {
	return FromClaims(c), nil
}

// FullName returns a person's given and family names joined by a space,
// without the space when either is missing: the Name of a User whose
// provider gives the two apart.
func FullName(given, family string) string {
	return strings.TrimSpace(given + " " + family)
}
