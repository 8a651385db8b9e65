//go:build !race

package gatehouse_test

// raceDetector: see race_on_test.go.
const raceDetector = false
