package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// WebAuthnFactory makes a WebAuthn provider's configuration, filling the
// defaults of its id.
type WebAuthnFactory func(passkey.WebAuthnConfig) passkey.WebAuthnConfig

// webAuthnRegistry maps the WebAuthn provider ids of
// providers.BuiltinID ("passkey" and "webauthn") to their
// factories: the built-in providers of the WebAuthn provider type.
var webAuthnRegistry = map[providers.BuiltinID]WebAuthnFactory{
	providers.Passkey:  passkey.New,
	providers.WebAuthn: passkey.WebAuthn,
}

// LookupWebAuthn returns the factory of the WebAuthn provider id
// ("passkey" or "webauthn"), and whether there is one.
func LookupWebAuthn(id providers.BuiltinID) (WebAuthnFactory, bool) {
	f, ok := webAuthnRegistry[id]
	return f, ok
}

// WebAuthnIDs returns the WebAuthn provider ids, sorted.
func WebAuthnIDs() []providers.BuiltinID {
	return sortedIDs(webAuthnRegistry)
}
