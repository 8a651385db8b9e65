package redistest

import (
	"context"
	"strings"
	"testing"
)

// TestPrefix: a test's keys live under a prefix of its own, KeysUnder
// finds them and no others, and they are gone when the test ends.
func TestPrefix(t *testing.T) {
	c := NewClient(t)
	ctx := context.Background()
	var first string
	t.Run("keys", func(t *testing.T) {
		first = Prefix(t, c)
		other := Prefix(t, c)
		if first == other || !strings.HasPrefix(first, "gatehouse-test:") {
			t.Fatalf("prefixes %q and %q", first, other)
		}
		for _, k := range []string{first + "a", first + "b", other + "c"} {
			if err := c.Set(ctx, k, "1", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if keys := KeysUnder(t, c, first); len(keys) != 2 {
			t.Errorf("KeysUnder(%q) = %v, want its two keys", first, keys)
		}
	})
	if keys := KeysUnder(t, c, first); len(keys) != 0 {
		t.Errorf("after the test, %v are left", keys)
	}
}
