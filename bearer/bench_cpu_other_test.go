//go:build !linux

package bearer

import "time"

// threadTime falls back to wall time where the CPU time of one thread is
// not at hand.
func threadTime() (now func() time.Duration, unlock func()) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, func() {}
}
