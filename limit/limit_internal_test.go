package limit

import (
	"context"
	"fmt"
	"strings"
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

// TestMemoryKeepsLongKeysHashed: a key as long as a form allows is counted
// under a short one, and still told apart from its neighbours.
func TestMemoryKeepsLongKeysHashed(t *testing.T) {
	ctx := context.Background()
	l := NewMemory(2, time.Hour)
	long := "id:credentials:" + strings.Repeat("a", 64<<10)
	other := long[:len(long)-1] + "b"
	_ = l.Fail(ctx, long)
	_ = l.Fail(ctx, long)
	if w, _ := l.Wait(ctx, long); w <= 0 {
		t.Fatal("a long key is not limited")
	}
	if w, _ := l.Wait(ctx, other); w != 0 {
		t.Fatal("two long keys share a count")
	}
	for k := range l.m {
		if len(k) > 128 {
			t.Fatalf("a key of %d bytes is kept", len(k))
		}
	}
	_ = l.Reset(ctx, long)
	if w, _ := l.Wait(ctx, long); w != 0 || len(l.m) != 0 {
		t.Fatal("Reset does not forget a long key")
	}
}
