package lru

import (
	"errors"
	"strconv"
	"sync"
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

// The key asked for last is answered without the lock; once its value is
// dropped it is built again, never answered from the fast path.
func TestCacheLast(t *testing.T) {
	c := New[string, string](1)
	builds := 0
	get := func(k string) string {
		t.Helper()
		v, _, err := c.Get(k, func() (string, error) { builds++; return k + strconv.Itoa(builds), nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if a1, again := get("a"), get("a"); a1 != "a1" || again != "a1" || builds != 1 {
		t.Fatalf("a, a: %q, %q after %d builds", a1, again, builds)
	}
	if b := get("b"); b != "b2" {
		t.Fatalf("b: %q", b)
	}
	if a := get("a"); a != "a3" {
		t.Fatalf("a after it was dropped: %q, want a new build", a)
	}
}

// Goroutines asking for keys in turn always get their own key's value,
// and the cache holds no more than its size (run with -race).
func TestCacheConcurrent(t *testing.T) {
	c := New[int, int](2)
	var wg sync.WaitGroup
	for g := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := (g + i) % 3
				v, _, err := c.Get(k, func() (int, error) { return k, nil })
				if err != nil || v != k {
					t.Errorf("Get(%d) = %d, %v", k, v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := c.Len(); n > 2 {
		t.Fatalf("holds %d values, size 2", n)
	}
}
