package lru

import (
	"errors"
	"testing"
)

// A value is built once per key and reused; a full cache drops the least
// recently used key first, says so, and never holds more than its size;
// a failed build is not kept.
func TestCache(t *testing.T) {
	c := New[string, int](2)
	builds := 0
	get := func(k string) (int, bool) {
		t.Helper()
		v, evicted, err := c.Get(k, func() (int, error) { builds++; return builds, nil })
		if err != nil {
			t.Fatal(err)
		}
		return v, evicted
	}
	a, _ := get("a")
	b, _ := get("b")
	if v, _ := get("a"); v != a || builds != 2 {
		t.Fatalf("a reused key was built again: %d, %d builds", v, builds)
	}
	if _, evicted := get("c"); !evicted || c.Len() != 2 { // drops b, the least recently used
		t.Fatalf("evicted %v, %d held; want true, 2", evicted, c.Len())
	}
	if v, evicted := get("a"); v != a || evicted {
		t.Fatal("the most recently used value was dropped")
	}
	if v, _ := get("b"); v == b {
		t.Fatal("the least recently used value was kept")
	}
	boom := errors.New("boom")
	if _, _, err := c.Get("d", func() (int, error) { return 0, boom }); err != boom {
		t.Fatalf("err = %v, want the build's", err)
	}
	if v, _ := get("d"); v == 0 {
		t.Fatal("a failed build was kept")
	}
}
