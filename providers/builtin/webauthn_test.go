package builtin

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// TestWebAuthnProviders: both WebAuthn ids are registered, each factory
// makes a valid configuration with its own id and type, and neither id is
// an OAuth one.
func TestWebAuthnProviders(t *testing.T) {
	for _, id := range []providers.BuiltinID{providers.Passkey, providers.WebAuthn} {
		f, ok := LookupWebAuthn(id)
		if !ok {
			t.Fatalf("%q has no WebAuthn factory", id)
		}
		if !id.Valid() || id.IsOAuth() {
			t.Errorf("%q: valid %v, OAuth %v; want a known non-OAuth id", id, id.Valid(), id.IsOAuth())
		}
		c := f(passkey.WebAuthnConfig{})
		if b := c.ProviderBase(); b.ID != string(id) || b.Type != providers.TypeWebAuthn {
			t.Errorf("%q: factory makes %+v", id, b)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
	if ids := WebAuthnIDs(); len(ids) != 2 {
		t.Errorf("WebAuthnIDs() = %v, want 2 ids", ids)
	}
	// The passkey provider requires what makes a passkey; the plain
	// WebAuthn provider only prefers it (Auth.js).
	if c := passkey.New(passkey.WebAuthnConfig{}); c.UserVerification != passkey.VerificationRequired || c.ResidentKey != passkey.ResidentKeyRequired {
		t.Errorf("passkey defaults: %+v", c)
	}
	if c := passkey.WebAuthn(passkey.WebAuthnConfig{}); c.UserVerification != passkey.VerificationPreferred || c.ResidentKey != passkey.ResidentKeyPreferred {
		t.Errorf("webauthn defaults: %+v", c)
	}
}
