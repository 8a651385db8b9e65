package passwordaccount

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestPrepareAddsMessages: Prepare adds the messages of the password-
// account pages (NewService and NewFlow call it).
func TestPrepareAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { _, _ = Config{}.Prepare() }, "passwordflow.continue")
}
