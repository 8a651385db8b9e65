package passkeyflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/limit"
)

// maxChallenges bounds the challenges of verified ceremonies remembered
// until they expire, so that each is accepted once. The log is per
// process; with Shared set (Config.Limits), a challenge is also recorded
// there, so that it is accepted once across instances. When full of
// unexpired challenges it refuses new ceremonies rather than forget one
// (fail closed, bounded.Map.Add).
const maxChallenges = 100000

// Challenges is the log of the challenges of verified ceremonies: each
// is accepted once. It is safe for concurrent use.
type Challenges struct {
	used *bounded.Map[string, struct{}]
	// Shared, when set, is a limiter allowing one use per key within
	// MaxCeremony at least: the log shared by every instance. A failing
	// one refuses the ceremony (fail closed).
	Shared limit.Limiter
}

// MaxCeremony is the longest a passkey ceremony may last (a provider's
// Timeout is at most an hour): the window of a Shared log.
const MaxCeremony = time.Hour

// NewChallenges returns an empty log, holding at most maxChallenges.
func NewChallenges() *Challenges { return newChallenges(maxChallenges) }

func newChallenges(size int) *Challenges {
	return &Challenges{used: bounded.New[string, struct{}](size)}
}

// Use records a verified ceremony's challenge until it expires (zero:
// the default ceremony timeout from now) and reports whether it was new.
func (c *Challenges) Use(ctx context.Context, challenge string, expires time.Time) bool {
	now := time.Now()
	if expires.IsZero() {
		expires = now.Add(defaultTimeout)
	}
	if !c.used.Add(challenge, struct{}{}, expires, now) {
		return false
	}
	if c.Shared == nil {
		return true
	}
	sum := sha256.Sum256([]byte(challenge))
	wait, err := c.Shared.Reserve(ctx, "challenge:"+hex.EncodeToString(sum[:]))
	return err == nil && wait <= 0
}

// defaultTimeout is a ceremony's length when the provider sets none
// (passkey.DefaultTimeout).
const defaultTimeout = 5 * time.Minute
