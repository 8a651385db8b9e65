package bounded

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestGetExpires(t *testing.T) {
	m := New[string, int](4)
	m.Set("a", 1, t0.Add(time.Minute), t0)
	m.Set("b", 2, time.Time{}, t0)
	if v, ok := m.Get("a", t0); !ok || v != 1 {
		t.Fatalf("Get a = %v, %v", v, ok)
	}
	if _, ok := m.Get("a", t0.Add(time.Minute)); ok {
		t.Fatal("an entry was returned at its expiry")
	}
	if v, ok := m.Get("b", t0.Add(1000*time.Hour)); !ok || v != 2 {
		t.Fatal("an entry without expiry expired")
	}
}

// TestSetStaysBounded: a flood of new keys never grows the map past its
// size; expired entries go first.
func TestSetStaysBounded(t *testing.T) {
	m := New[int, int](8)
	m.Set(-1, -1, time.Time{}, t0)
	for i := range 1000 {
		m.Set(i, i, t0.Add(time.Hour), t0)
		if m.Len() > 8 {
			t.Fatalf("after %d sets the map holds %d", i+1, m.Len())
		}
	}
	if v, ok := m.Get(999, t0); !ok || v != 999 {
		t.Fatal("the newest entry is missing")
	}
	// Expired entries make room before live ones are dropped.
	e := New[string, int](2)
	e.Set("old", 1, t0.Add(time.Second), t0)
	e.Set("live", 2, t0.Add(time.Hour), t0)
	e.Set("new", 3, t0.Add(time.Hour), t0.Add(2*time.Second))
	if _, ok := e.Get("live", t0.Add(2*time.Second)); !ok {
		t.Fatal("a live entry was dropped while an expired one could go")
	}
}

// TestAddFailsClosed: a replay log refuses a key it has, and when full of
// live keys refuses new ones rather than forget one before its expiry.
func TestAddFailsClosed(t *testing.T) {
	m := New[string, struct{}](2)
	if !m.Add("a", struct{}{}, t0.Add(time.Minute), t0) || !m.Add("b", struct{}{}, t0.Add(2*time.Minute), t0) {
		t.Fatal("first uses refused")
	}
	if m.Add("a", struct{}{}, t0.Add(time.Minute), t0) {
		t.Fatal("a replay was accepted")
	}
	if m.Add("c", struct{}{}, t0.Add(time.Minute), t0) {
		t.Fatal("a full log forgot a live key to take a new one")
	}
	if m.Add("b", struct{}{}, t0.Add(time.Minute), t0.Add(90*time.Second)) {
		t.Fatal("b was accepted again before its expiry")
	}
	// Once a expires, its place is free and a may be used again.
	later := t0.Add(61 * time.Second)
	if !m.Add("a", struct{}{}, later.Add(time.Minute), later) {
		t.Fatal("an expired key was refused")
	}
}

// TestConcurrentAdd: of many goroutines adding one key, exactly one wins.
func TestConcurrentAdd(t *testing.T) {
	m := New[string, struct{}](1000)
	for k := range 20 {
		var wins sync.WaitGroup
		n := 0
		var mu sync.Mutex
		for range 16 {
			wins.Go(func() {
				if m.Add(fmt.Sprint(k), struct{}{}, t0.Add(time.Hour), t0) {
					mu.Lock()
					n++
					mu.Unlock()
				}
			})
		}
		wins.Wait()
		if n != 1 {
			t.Fatalf("key %d added %d times", k, n)
		}
	}
}

func BenchmarkGetParallel(b *testing.B) {
	m := New[string, []byte](10000)
	m.Set("k", []byte("v"), time.Time{}, t0)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := m.Get("k", t0); !ok {
				b.Fatal("miss")
			}
		}
	})
}

// TestConcurrentSetStaysBounded: writers flooding new keys while readers
// read never push the map past its size, and its count of entries stays
// the true one (the lock-free reads see whole entries only).
func TestConcurrentSetStaysBounded(t *testing.T) {
	m := New[string, int](64)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprint(w, "-", i)
				m.Set(k, i, t0.Add(time.Duration(i%3)*time.Second), t0.Add(time.Duration(i)*time.Millisecond))
				if n := m.Len(); n > 64 {
					t.Errorf("%d entries", n)
					return
				}
			}
		})
		wg.Go(func() {
			for i := range 2000 {
				if v, ok := m.Get(fmt.Sprint(w, "-", i), t0); ok && v != i {
					t.Errorf("key %d-%d read %d", w, i, v)
					return
				}
			}
		})
	}
	wg.Wait()
	stored := 0
	m.m.Range(func(_, _ any) bool { stored++; return true })
	if stored != m.Len() || stored > 64 {
		t.Fatalf("%d entries stored, Len %d", stored, m.Len())
	}
}
