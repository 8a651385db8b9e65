package passkeyflow

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// AddMessages adds the messages of the passkey forms of the sign-in page
// (the passkey script's messages) to the pages' catalogue (pages.Text),
// once: New calls it, so they are there before any of them is shown, and
// a program that never turns the feature on links none of them.
func AddMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the passkey forms of the sign-
// in page (the passkey script's messages), by key. German has exactly
// the English keys (see the test).
var english = map[string]string{
	"signin.createPasskey": "Create a %s",
	"webauthn.unsupported": "This browser cannot use passkeys.",
	"webauthn.cancelled":   "The passkey request was cancelled or timed out.",
	"webauthn.failed":      "Passkey failed.",
	"webauthn.refused":     "The server refused.",
}

var german = map[string]string{
	"signin.createPasskey": "%s erstellen",
	"webauthn.unsupported": "Dieser Browser kann keine Passkeys verwenden.",
	"webauthn.cancelled":   "Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen.",
	"webauthn.failed":      "Der Passkey hat nicht funktioniert.",
	"webauthn.refused":     "Der Server hat abgelehnt.",
}
