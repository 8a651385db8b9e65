// Package logto is the built-in Logto provider (OpenID Connect). The
// issuer is the application's Logto endpoint followed by /oidc (e.g.
// https://acme.logto.app/oidc), supplied by the application; the
// endpoints come from discovery.
//
//	p := logto.New(providers.OIDCUserConfig[logto.Profile]{
//		ClientID:     os.Getenv("AUTH_LOGTO_ID"),
//		ClientSecret: os.Getenv("AUTH_LOGTO_SECRET"),
//		Issuer:       os.Getenv("AUTH_LOGTO_ISSUER"),
//	})
package logto

import (
	"context"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "logto"
	// Name is the display name.
	Name = "Logto"
	// Scope asks for an ID token with the profile and e-mail claims, and
	// for a refresh token (offline_access).
	Scope = "offline_access openid email profile"
)

// Profile is the claims Logto returns about the user. Which are present
// depends on the scopes granted.
type Profile struct {
	// Sub is the user's id.
	Sub string `json:"sub"`
	// Name is the user's full name.
	Name string `json:"name,omitempty"`
	// Username is the user's Logto username.
	Username string `json:"username,omitempty"`
	// Picture is the URL of the user's avatar.
	Picture string `json:"picture,omitempty"`
	// Email is the user's address (email scope).
	Email string `json:"email,omitempty"`
	// EmailVerified says whether Logto verified Email.
	EmailVerified bool `json:"email_verified,omitempty"`
	// PhoneNumber is the user's phone number (phone scope).
	PhoneNumber string `json:"phone_number,omitempty"`
	// PhoneNumberVerified says whether Logto verified PhoneNumber.
	PhoneNumberVerified bool `json:"phone_number_verified,omitempty"`
	// CustomData is the user's custom data (custom_data scope).
	CustomData map[string]any `json:"custom_data,omitempty"`
	// Identities are the user's linked social identities (identities
	// scope), keyed by connector target.
	Identities map[string]any `json:"identities,omitempty"`
	// Organizations are the ids of the user's organizations
	// (urn:logto:scope:organizations scope).
	Organizations []string `json:"organizations,omitempty"`
	// OrganizationRoles are the user's organization roles, each
	// "<organization id>:<role name>".
	OrganizationRoles []string `json:"organization_roles,omitempty"`
	// CreatedAt is when the user was created, in milliseconds since the
	// epoch.
	CreatedAt int64 `json:"created_at,omitempty"`
	// UpdatedAt is when the user was last updated, in milliseconds since
	// the epoch.
	UpdatedAt int64 `json:"updated_at,omitempty"`
}

// New returns the Logto provider configuration with opts laid over its
// defaults by providers.Merge. opts.Issuer is required: without it the
// configuration is incomplete and gatehouse.New reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope,
// the default checks and MapProfile. Logto has no button style of its own.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{}, MapProfile)
}

// MapProfile maps Logto claims to a user: id ← sub, name ← name, else
// username, email ← email, image ← picture. EmailVerified is set to now
// when Logto asserts email_verified, as the default OpenID Connect mapping
// does.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	if p.Sub == "" {
		return profile.User{}, errors.New("logto: claims have no sub")
	}
	u := profile.User{ID: p.Sub, Name: p.Name, Email: p.Email, Image: p.Picture}
	if u.Name == "" {
		u.Name = p.Username
	}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return u, nil
}
