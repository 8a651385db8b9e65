// Package line is the built-in LINE Login provider (OpenID Connect, issuer
// https://access.line.me, endpoints from discovery). LINE signs its ID
// tokens with HS256 and the channel secret. The claims are mapped by the
// default OpenID Connect mapping.
//
//	p := line.New(providers.OIDCUserConfig[line.Profile]{
//		ClientID:     os.Getenv("AUTH_LINE_ID"),     // the channel ID
//		ClientSecret: os.Getenv("AUTH_LINE_SECRET"), // the channel secret
//	})
//
// The email claim is only present once LINE has approved the channel's
// request for e-mail permission.
package line

import "github.com/gatehouse-auth/gatehouse/providers"

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "line"
	// Name is the display name.
	Name = "LINE"
	// Issuer is LINE's issuer; the endpoints come from its discovery
	// document.
	Issuer = "https://access.line.me"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
	// IDTokenAlg is the algorithm LINE signs ID tokens with (HMAC with
	// the channel secret).
	IDTokenAlg = "HS256"
)

// Profile is the claims of a LINE ID token.
type Profile struct {
	// Iss is the issuer, https://access.line.me.
	Iss string `json:"iss"`
	// Sub is the user's LINE user id.
	Sub string `json:"sub"`
	// Aud is the channel id.
	Aud string `json:"aud"`
	// Exp is when the token expires, in seconds since the epoch.
	Exp int64 `json:"exp"`
	// Iat is when the token was issued, in seconds since the epoch.
	Iat int64 `json:"iat"`
	// AuthTime is when the user authenticated.
	AuthTime int64 `json:"auth_time,omitempty"`
	// Nonce echoes the authorization request's nonce, if one was sent.
	Nonce string `json:"nonce,omitempty"`
	// AMR lists the authentication methods used (pwd, lineautologin,
	// lineqr, linesso, mfa).
	AMR []string `json:"amr,omitempty"`
	// Name is the user's display name (profile scope).
	Name string `json:"name,omitempty"`
	// Picture is the URL of the user's profile picture (profile scope).
	Picture string `json:"picture,omitempty"`
	// Email is the user's address (email scope, once approved by LINE).
	Email string `json:"email,omitempty"`
}

// New returns the LINE provider configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the LINE configuration before any user option: the
// issuer, the scope, the checks (state only, as Auth.js), the HS256 ID
// token algorithm and the button style.
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#00C300"})
	c.Checks = []providers.Check{providers.CheckState}
	c.Client = providers.Client{IDTokenSignedResponseAlg: IDTokenAlg}
	return c
}
