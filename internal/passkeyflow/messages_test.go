package passkeyflow

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestNewAddsMessages: New adds the messages of the passkey forms (the
// passkey provider calls it).
func TestNewAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { New(Config{}, nil) }, "webauthn.failed")
}
