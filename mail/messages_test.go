package mail

import (
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
)

// TestMessagesComplete: this catalogue's German has exactly the English
// keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) { flowtest.MessagesComplete(t, english, german) }

// TestNewDataAddsMessages: NewData adds the messages of the e-mails.
func TestNewDataAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() {
		NewData(KindSignIn, "en", "a@example.com", "example.com", "https://example.com/l", time.Time{})
	}, "mail.signin.button", "mail.until")
}

// TestRenderAddsMessages: Render adds them too, for Data an application
// made itself.
func TestRenderAddsMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() {
		if _, err := Render(nil, Data{Kind: KindSignIn, Lang: "de"}); err != nil {
			t.Error(err)
		}
	}, "mail.signin.button")
}
