// Package descope is the built-in Descope provider (OpenID Connect). Its
// issuer is https://api.descope.com/<project id>, and Descope's client id
// is the project id, so the issuer follows from the client id unless the
// application sets one. The ID token's claims are mapped by the default
// OpenID Connect mapping.
//
//	p := descope.New(providers.OIDCUserConfig[descope.Profile]{
//		ClientID:     os.Getenv("AUTH_DESCOPE_ID"),
//		ClientSecret: os.Getenv("AUTH_DESCOPE_SECRET"),
//	})
package descope

import (
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "descope"
	// Name is the display name.
	Name = "Descope"
	// IssuerBase is the issuer of every project, less the project id.
	IssuerBase = "https://api.descope.com/"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the ID token's claims: sub, name, email, email_verified,
// phone_number, phone_number_verified, picture and any custom claims of
// the project.
type Profile = profile.Claims

// Issuer returns the issuer of the Descope project projectID (the client
// id).
func Issuer(projectID string) string { return IssuerBase + projectID }

// New returns the Descope provider configuration with opts laid over its
// defaults by providers.Merge. When opts sets a client id and no issuer,
// the issuer is Issuer(opts.ClientID). A client id that only arrives later
// (from AUTH_DESCOPE_ID at gatehouse.New) needs the issuer set as well
// (AUTH_DESCOPE_ISSUER).
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	c := providers.Merge(Defaults(), opts)
	if c.Issuer == "" && c.ClientID != "" {
		c.Issuer = Issuer(c.ClientID)
	}
	return c
}

// Defaults returns the Descope configuration before any user option: the
// scope, the checks (pkce and state, no nonce) and the button style. The
// issuer depends on the client id; see New.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaults[Profile](ID, Name, Scope, providers.Style{BrandColor: "#1C1C23"})
	c.Checks = []providers.Check{providers.CheckPKCE, providers.CheckState}
	return c
}
