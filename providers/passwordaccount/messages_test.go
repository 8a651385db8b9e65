package passwordaccount

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/catalog"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete checks that this catalogue's German has exactly
// the English keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) {
	for _, p := range catalog.Check(english, german) {
		t.Error(p)
	}
}

// TestPrepareAddsMessages: Prepare adds the messages of the password-
// account pages (NewService and NewFlow call it).
func TestPrepareAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { _, _ = Config{}.Prepare() }, "passwordflow.continue")
}
