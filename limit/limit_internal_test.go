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
		_, _ = l.Reserve(ctx, fmt.Sprint(i))
	}
	if n := len(l.m); n != l.MaxKeys {
		t.Fatalf("%d keys after %d attempts", n, l.MaxKeys)
	}
	_, _ = l.Reserve(ctx, "new")
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
	_, _ = l.Reserve(ctx, long)
	_, _ = l.Reserve(ctx, long)
	if w, _ := l.Reserve(ctx, long); w <= 0 {
		t.Fatal("a long key is not limited")
	}
	if w, _ := l.Reserve(ctx, other); w != 0 {
		t.Fatal("two long keys share a count")
	}
	for k := range l.m {
		if len(k) > 128 {
			t.Fatalf("a key of %d bytes is kept", len(k))
		}
	}
	_ = l.Reset(ctx, long)
	if _, ok := l.m[memoryKey(long)]; ok {
		t.Fatal("Reset does not forget a long key")
	}
}

// TestMemoryIsBounded: 1000 keys in a limiter of 100 keep it at 100.
func TestMemoryIsBounded(t *testing.T) {
	l := NewMemory(1, time.Hour)
	l.MaxKeys = 100
	for i := range 1000 {
		_, _ = l.Reserve(context.Background(), fmt.Sprint(i))
	}
	if n := len(l.m); n > 100 || n == 0 {
		t.Fatalf("%d keys tracked, want 1..100", n)
	}
}
