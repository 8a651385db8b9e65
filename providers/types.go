package providers

import "slices"

// BuiltinID is the id of a built-in provider: a closed enumeration of
// lower-case ids, some with hyphens. Besides the OAuth 2.0 and OpenID
// Connect providers it holds the e-mail, credentials and passkey provider
// ids, as Auth.js's enumeration (OAuthProviderType) does.
type BuiltinID string

// OAuthProviderType is the name Auth.js gives BuiltinID.
//
// Deprecated: use BuiltinID; the type also names e-mail, credentials and
// passkey providers, which are not OAuth.
type OAuthProviderType = BuiltinID

// The built-in e-mail (magic link) provider ids.
const (
	Nodemailer   OAuthProviderType = "nodemailer"
	Email        OAuthProviderType = "email"
	Resend       OAuthProviderType = "resend"
	SendGrid     OAuthProviderType = "sendgrid"
	Postmark     OAuthProviderType = "postmark"
	Mailgun      OAuthProviderType = "mailgun"
	ForwardEmail OAuthProviderType = "forwardemail"
	Loops        OAuthProviderType = "loops"
)

// The built-in credentials and passkey provider ids.
const (
	Credentials OAuthProviderType = "credentials"
	WebAuthn    OAuthProviderType = "webauthn"
	Passkey     OAuthProviderType = "passkey"
)

// notOAuth are the ids of the enumeration that name e-mail, credentials
// or passkey providers.
var notOAuth = []OAuthProviderType{
	Nodemailer, Email, Resend, SendGrid, Postmark, Mailgun, ForwardEmail, Loops,
	Credentials, WebAuthn, Passkey,
}

// allProviderTypes is the closed list: the OAuth 2.0 and OpenID Connect
// ids of the catalogue (ids_gen.go) and the others. AllOAuthProviderTypes
// sorts a copy.
var allProviderTypes = append(slices.Clone(oauthProviderTypes), notOAuth...)

// AllOAuthProviderTypes returns every built-in provider id, sorted. The
// slice is a fresh copy on each call.
func AllOAuthProviderTypes() []OAuthProviderType {
	all := slices.Clone(allProviderTypes)
	slices.Sort(all)
	return all
}

// Valid reports whether t is one of the built-in provider ids.
func (t OAuthProviderType) Valid() bool {
	return slices.Contains(allProviderTypes, t)
}

// IsOAuth reports whether t is the id of a built-in OAuth 2.0 or OpenID
// Connect provider, rather than of an e-mail, credentials or passkey one.
func (t OAuthProviderType) IsOAuth() bool {
	return t.Valid() && !slices.Contains(notOAuth, t)
}
