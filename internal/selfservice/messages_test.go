package selfservice

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/catalog"
)

// TestMessagesComplete checks that this catalogue's German has exactly
// the English keys, each with the same fmt verbs.
func TestMessagesComplete(t *testing.T) {
	for _, p := range catalog.Check(english, german) {
		t.Error(p)
	}
}
