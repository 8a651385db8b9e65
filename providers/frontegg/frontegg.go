// Package frontegg is the built-in Frontegg provider (OpenID Connect). The
// issuer is the application's Frontegg domain (e.g.
// https://acme.frontegg.com); the endpoints are fixed paths below it, so
// only the signing keys come from discovery. The claims are mapped by the
// default OpenID Connect mapping.
//
//	p := frontegg.New(providers.OIDCUserConfig[frontegg.Profile]{
//		ClientID:     os.Getenv("AUTH_FRONTEGG_ID"),
//		ClientSecret: os.Getenv("AUTH_FRONTEGG_SECRET"),
//		Issuer:       os.Getenv("AUTH_FRONTEGG_ISSUER"),
//	})
package frontegg

import (
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths below the issuer.
const (
	// ID is the provider id, part of its URLs.
	ID = "frontegg"
	// Name is the display name.
	Name = "Frontegg"
	// AuthorizationPath is where the user signs in (hosted login).
	AuthorizationPath = "/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/oauth/token"
	// UserinfoPath answers the signed-in user to a Bearer GET.
	UserinfoPath = "/identity/resources/users/v2/me"
	// WellKnownPath is Frontegg's discovery document, which is not at the
	// usual /.well-known/openid-configuration.
	WellKnownPath = "/oauth/.well-known/openid-configuration"
	// Scope asks for an ID token with the profile and e-mail claims (what
	// Auth.js sends by default; Frontegg's provider sets none).
	Scope = "openid profile email"
)

// Profile is the ID token's claims and the user record of the userinfo
// endpoint.
type Profile struct {
	// Sub is the user's Frontegg id.
	Sub string `json:"sub"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Email is the user's e-mail address.
	Email string `json:"email,omitempty"`
	// EmailVerified says whether Frontegg verified Email.
	EmailVerified bool `json:"email_verified,omitempty"`
	// ProfilePictureURL is the user's picture. The default mapping does not
	// read it (it reads picture); set a Profile callback to use it.
	ProfilePictureURL string `json:"profilePictureUrl,omitempty"`
	// Roles are the user's role keys.
	Roles []string `json:"roles,omitempty"`
	// TenantID is the user's active tenant.
	TenantID string `json:"tenantId,omitempty"`
}

// New returns the Frontegg provider configuration for the domain at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the Frontegg domain issuer: the
// endpoints below it, the scope and the default checks. With issuer "" the
// endpoints are left empty, and gatehouse.New reports the missing issuer.
// Frontegg has no button style of its own.
func Defaults(issuer string) providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{})
	if base := strings.TrimRight(issuer, "/"); base != "" {
		c.Issuer = base
		c.Authorization.URL = base + AuthorizationPath
		c.Token.URL = base + TokenPath
		c.Userinfo.URL = base + UserinfoPath
		c.WellKnown = base + WellKnownPath
	}
	return c
}
