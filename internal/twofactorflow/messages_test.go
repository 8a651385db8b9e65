package twofactorflow

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestNewAddsMessages: New adds the messages of the two-factor pages,
// and the self-service ones its settings routes show (twofactor.SignIn
// calls it).
func TestNewAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { New(&Env{}, nil, nil, nil) }, "tfsetup.turnOn", "twofactor.verify", "selfservice.wrongCode")
}
