package selfservice

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }
