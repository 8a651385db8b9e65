//go:build !unix

package gatehouse_test

import "time"

// cpuTime is not measured here: the cpu-ns/op metric reads 0.
func cpuTime() time.Duration { return 0 }
