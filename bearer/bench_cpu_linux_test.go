//go:build linux

package bearer

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadTime returns a clock of the CPU time of the calling OS thread,
// locked to the goroutine (CLOCK_THREAD_CPUTIME_ID, to the nanosecond): on
// a machine shared with other work it counts what the benchmark's own code
// cost, not the time it waited for a core. Call unlock when done.
func threadTime() (now func() time.Duration, unlock func()) {
	runtime.LockOSThread()
	return func() time.Duration {
		var ts unix.Timespec
		if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
			return 0
		}
		return time.Duration(ts.Nano())
	}, runtime.UnlockOSThread
}
