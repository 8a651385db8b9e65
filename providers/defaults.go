package providers

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gatehouse-auth/gatehouse/profile"
)

// The helpers below let a built-in provider's Defaults and MapProfile say
// only what is the provider's own: its facts, its style and its mapping.

// OIDCDefaultsAt returns OIDCDefaults with Issuer set to issuer: a
// provider at one fixed issuer, whose endpoints come from that issuer's
// discovery document.
func OIDCDefaultsAt[P any](id, name, issuer, scope string, style Style) OAuthConfig[P] {
	c := OIDCDefaults[P](id, name, scope, style)
	c.Issuer = issuer
	return c
}

// OIDCWith returns OIDCDefaults with mapProfile as the profile callback:
// a provider whose ID token claims need a mapping of their own.
func OIDCWith[P any](id, name, scope string, style Style, mapProfile profile.Callback[P]) OAuthConfig[P] {
	c := OIDCDefaults[P](id, name, scope, style)
	c.Profile = mapProfile
	return c
}

// Endpoints returns the endpoints of a plain OAuth 2.0 provider at fixed
// URLs, with scope as the authorization request's "scope" parameter.
func Endpoints(authorizationURL, tokenURL, userinfoURL, scope string) OAuthEndpoints {
	return OAuthEndpoints{
		AuthorizationURL:    authorizationURL,
		AuthorizationParams: map[string]string{"scope": scope},
		TokenURL:            tokenURL,
		UserinfoURL:         userinfoURL,
	}
}

// EndpointsUnder returns Endpoints for an API under base (a trailing
// slash is allowed): each path appended to it. Unlike EndpointsAt, an
// empty base leaves the bare paths.
func EndpointsUnder(base, authorizationPath, tokenPath, userinfoPath, scope string) OAuthEndpoints {
	base = strings.TrimRight(base, "/")
	return Endpoints(base+authorizationPath, base+tokenPath, base+userinfoPath, scope)
}

// MapClaims maps any profile by profile.FromClaims, through its JSON form
// unless it is a profile.Claims: the mapping of a provider whose profile
// is its ID token's claims or a record with the usual claim names.
func MapClaims[P any](p P) (profile.User, error) { return defaultMapping(p) }

// RequireID returns u, or, when u.ID is empty, the error
// "<provider>: <missing>" (e.g. "github: profile has no id"): a mapping
// must not give a user who cannot be told apart from others.
func RequireID(u profile.User, provider, missing string) (profile.User, error) {
	if u.ID == "" {
		return profile.User{}, errors.New(provider + ": " + missing)
	}
	return u, nil
}

// FormatID returns id in decimal, or "" for 0: the numeric user ids of
// provider APIs, where 0 means the profile has none (see RequireID).
func FormatID(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}
