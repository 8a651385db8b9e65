package logburst

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// manual is a clock whose timers run when fire is called.
type manual struct {
	mu     sync.Mutex
	timers []func()
}

func (m *manual) after(_ time.Duration, f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.timers = append(m.timers, f)
}

func (m *manual) fire() {
	m.mu.Lock()
	ts := m.timers
	m.timers = nil
	m.mu.Unlock()
	for _, f := range ts {
		f()
	}
}

func TestBurst(t *testing.T) {
	clock := &manual{}
	l := &Limiter{after: clock.after}
	var got []string
	note := func(who string) func(int) {
		return func(n int) { got = append(got, fmt.Sprintf("%s:%d", who, n)) }
	}
	for i := range 1000 {
		l.Report("refused", note(fmt.Sprint("r", i)))
	}
	l.Report("store", note("s0"))
	if want := "[r0:0 s0:0]"; fmt.Sprint(got) != want {
		t.Fatalf("before the window ends: %v, want %s", got, want)
	}
	clock.fire()
	if want := "[r0:0 s0:0 r999:999]"; fmt.Sprint(got) != want {
		t.Fatalf("at the window's end: %v, want %s (the last event, with the count of the others)", got, want)
	}
	// A new window starts with the next event, reported at once.
	l.Report("refused", note("again"))
	if got[len(got)-1] != "again:0" {
		t.Fatalf("after the window: %v", got)
	}
}

func TestBurstBoundsKinds(t *testing.T) {
	clock := &manual{}
	l := &Limiter{after: clock.after}
	reported := 0
	for i := range 3 * maxKinds {
		l.Report(fmt.Sprint("kind", i), func(int) { reported++ })
	}
	if len(l.open) > maxKinds+1 || reported > maxKinds+1 {
		t.Fatalf("%d kinds open, %d reports: the table is not bounded", len(l.open), reported)
	}
	clock.fire()
	if len(l.open) != 0 {
		t.Fatalf("%d kinds still open after their windows", len(l.open))
	}
}

func TestBurstConcurrent(t *testing.T) {
	clock := &manual{}
	l := &Limiter{after: clock.after}
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			l.Report("k", func(n int) {
				mu.Lock()
				total += max(n, 1)
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	clock.fire()
	if total != 100 {
		t.Fatalf("reports stand for %d events, want 100", total)
	}
}

func TestBurstRealTimer(t *testing.T) {
	l := &Limiter{Window: 200 * time.Millisecond}
	done := make(chan int, 2)
	l.Report("k", func(n int) { done <- n })
	l.Report("k", func(n int) { done <- n })
	if first, second := <-done, <-done; first != 0 || second != 1 {
		t.Fatalf("reports %d then %d, want 0 then 1", first, second)
	}
}

// TestCount: Count counts only into an open window, which reports the
// counted events in its summary.
func TestCount(t *testing.T) {
	clock := &manual{}
	l := &Limiter{after: clock.after}
	if l.Count("k") {
		t.Fatal("Count counted with no window open")
	}
	got := -1
	l.Report("k", func(n int) { got = n })
	for range 5 {
		if !l.Count("k") {
			t.Fatal("Count did not count into the open window")
		}
	}
	clock.fire()
	if got != 5 {
		t.Fatalf("the summary counts %d, want 5", got)
	}
}
