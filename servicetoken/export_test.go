package servicetoken

import "time"

// SetClock makes s read the time from now (tests of the schedule).
func SetClock(s *Signer, now func() time.Time) { s.now = now }
