//go:build race

package gatehouse_test

// raceDetector reports whether the tests run under the race detector,
// where allocation counts are not the program's own: the detector's
// instrumentation allocates, and sync.Pool drops a random share of the
// values put back (to shake out races), so pooled states get rebuilt.
const raceDetector = true
