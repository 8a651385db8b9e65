// Package logburst keeps a flood of one kind of event from becoming a
// flood of log lines and event calls: the first event of a kind is
// reported at once, the ones that follow within a window are only
// counted, and one summary with their count is reported when the window
// ends. A thousand refused requests a second from one address, or every
// session read while the database is down, then costs a map lookup each
// and writes two lines per window, not one per request.
package logburst

import (
	"sync"
	"time"
)

// DefaultWindow is the window of a zero Limiter.
const DefaultWindow = 10 * time.Second

// maxKinds bounds the kinds counted at once. Kinds can hold values from a
// request (a provider id in a path); past the bound, new kinds share one
// count, reported under the kind that found the table full.
const maxKinds = 1024

// overflow is the key of the shared count.
const overflow = "\x00overflow"

// Limiter counts events by kind. The zero value is ready to use, with
// DefaultWindow. It is safe for concurrent use.
type Limiter struct {
	// Window is how long after a reported event the same kind is only
	// counted; DefaultWindow when zero.
	Window time.Duration

	mu    sync.Mutex
	open  map[string]*burst
	after func(d time.Duration, f func()) // time.AfterFunc; tests replace it
}

// burst is an open window of one kind.
type burst struct {
	repeats int
	report  func(repeats int) // the latest reported event's, for the summary
}

// Count counts an event of kind key when a window of key is open, and
// reports whether it did: a caller on a hot path calls Report only when
// Count says no, and so builds its report only for the events that are
// reported.
func (l *Limiter) Count(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.open[key]
	if ok {
		b.repeats++
	}
	return ok
}

// Report reports an event of kind key. The first event of a window is
// reported at once, as report(0); later ones in the window are counted,
// and at the window's end the last of them is reported as report(n), n
// being how many were counted. report runs without the Limiter's lock,
// at once in the caller's goroutine or later in a timer's.
func (l *Limiter) Report(key string, report func(repeats int)) {
	l.mu.Lock()
	if l.open == nil {
		l.open = map[string]*burst{}
	}
	if _, ok := l.open[key]; !ok && len(l.open) >= maxKinds {
		key = overflow
	}
	if b, ok := l.open[key]; ok {
		b.repeats++
		b.report = report
		l.mu.Unlock()
		return
	}
	l.open[key] = &burst{report: report} // until a later Report brings its own
	after := l.after
	window := l.Window
	l.mu.Unlock()
	if after == nil {
		after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	if window <= 0 {
		window = DefaultWindow
	}
	report(0)
	after(window, func() { l.close(key) })
}

// close ends key's window, reporting what it counted.
func (l *Limiter) close(key string) {
	l.mu.Lock()
	b := l.open[key]
	delete(l.open, key)
	l.mu.Unlock()
	if b != nil && b.repeats > 0 {
		b.report(b.repeats)
	}
}
