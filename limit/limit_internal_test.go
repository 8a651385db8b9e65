package limit

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestMemoryMakesRoomInBatches: a full limiter frees an eighth of its keys
// at once, so that new keys do not each walk the whole map.
func TestMemoryMakesRoomInBatches(t *testing.T) {
	ctx := context.Background()
	l := NewMemory(1, time.Hour)
	l.MaxKeys = 800
	for i := range l.MaxKeys {
		_ = l.Fail(ctx, fmt.Sprint(i))
	}
	if n := len(l.m); n != l.MaxKeys {
		t.Fatalf("%d keys after %d failures", n, l.MaxKeys)
	}
	_ = l.Fail(ctx, "new")
	if n, want := len(l.m), l.MaxKeys-l.MaxKeys/8+1; n != want {
		t.Fatalf("%d keys after the limiter made room, want %d", n, want)
	}
	if _, ok := l.m["new"]; !ok {
		t.Fatal("the new key is not tracked")
	}
}
