package keyflow

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestNewAddsMessages: New adds the messages of the API keys page
// (apikey.Enable calls it).
func TestNewAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() {
		_, _ = New(Config{Keys: apikey.Config{Prefix: "-"}}) // refused: a prefix of none of a-z and 0-9
	}, "keys.create", "org.noPermissions")
}
