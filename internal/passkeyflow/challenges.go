package passkeyflow

import (
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// maxChallenges bounds the challenges of verified ceremonies remembered
// until they expire, so that each is accepted once. The log is per
// process: across instances the challenge cookie (HttpOnly, cleared on
// use) and the sign counter are the defences. When full of unexpired
// challenges it refuses new ceremonies rather than forget one (fail
// closed, bounded.Map.Add).
const maxChallenges = 100000

// Challenges is the log of the challenges of verified ceremonies: each
// is accepted once. It is safe for concurrent use.
type Challenges struct {
	used *bounded.Map[string, struct{}]
}

// NewChallenges returns an empty log, holding at most maxChallenges.
func NewChallenges() *Challenges { return newChallenges(maxChallenges) }

func newChallenges(size int) *Challenges {
	return &Challenges{used: bounded.New[string, struct{}](size)}
}

// Use records a verified ceremony's challenge until it expires (zero:
// the default ceremony timeout from now) and reports whether it was new.
func (c *Challenges) Use(challenge string, expires time.Time) bool {
	now := time.Now()
	if expires.IsZero() {
		expires = now.Add(passkey.DefaultTimeout)
	}
	return c.used.Add(challenge, struct{}{}, expires, now)
}
