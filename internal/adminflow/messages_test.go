package adminflow

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestNewAddsMessages: New adds the messages of the administrators'
// pages (admin.Enable calls it, through Setup).
func TestNewAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { New(Config{}, nil) }, "admin.ban", "sessions.revoke")
}
