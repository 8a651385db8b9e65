package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// WebAuthnFactory makes a WebAuthn provider's configuration, filling the
// defaults of its id.
type WebAuthnFactory func(passkey.WebAuthnConfig) passkey.WebAuthnConfig

// WebAuthnProviders maps the WebAuthn provider ids of
// providers.OAuthProviderType ("passkey" and "webauthn") to their
// factories: the BuiltInProviders entries of the WebAuthn provider types
// (spec §2.6). Treat it as read-only.
var WebAuthnProviders = map[providers.OAuthProviderType]WebAuthnFactory{
	providers.Passkey:  passkey.New,
	providers.WebAuthn: passkey.WebAuthn,
}
