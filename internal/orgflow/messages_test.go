package orgflow

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestSetupAddsMessages: Setup adds the messages of the organization
// pages (organization.Enable calls it).
func TestSetupAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { _, _ = Setup(&organization.Config{}, Config{}, nil) }, "org.create")
}
