// Package limit counts failed sign-in attempts and tells when a client or
// an account must wait before it may try again: the brute-force defence of
// the credentials provider (OWASP ASVS 6.3.1; NIST SP 800-63B §5.2.2).
//
// A Limiter is keyed by strings the caller chooses, such as "ip:192.0.2.1"
// or "id:alice@example.com". Memory is the in-process default; a
// deployment with several processes gives all of them one shared Limiter
// through the same interface, such as package redislimit's, kept in Redis.
//
//	l := limit.NewMemory(5, 15*time.Minute) // 5 failures per 15 minutes
//	if wait, _ := l.Wait(ctx, key); wait > 0 {
//		// refuse, with Retry-After: wait
//	}
//	if ok := check(password); !ok {
//		l.Fail(ctx, key)
//	} else {
//		l.Reset(ctx, key)
//	}
package limit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"sync"
	"time"
)

// Limiter counts failed attempts per key. Every method is safe for
// concurrent use.
type Limiter interface {
	// Wait returns how long key must wait before its next attempt: 0 when
	// it may try now.
	Wait(ctx context.Context, key string) (time.Duration, error)
	// Fail records a failed attempt for key.
	Fail(ctx context.Context, key string) error
	// Reset forgets key's failed attempts, after a success.
	Reset(ctx context.Context, key string) error
}

// None is a Limiter that never limits: it switches a limit off.
type None struct{}

// Wait returns 0.
func (None) Wait(context.Context, string) (time.Duration, error) { return 0, nil }

// Fail does nothing.
func (None) Fail(context.Context, string) error { return nil }

// Reset does nothing.
func (None) Reset(context.Context, string) error { return nil }

// DefaultMaxKeys bounds how many keys a Memory limiter tracks.
const DefaultMaxKeys = 1 << 20

// Memory is a Limiter in the process's memory: at most Max failed attempts
// per key within Window, counted from the key's first failure. After the
// Max-th failure the key waits until its window ends; then it starts
// afresh. A success (Reset) clears the key at once.
//
// It tracks at most MaxKeys keys: when full, expired windows are dropped
// first, then arbitrary ones down to 7/8 of MaxKeys, so that an attacker with many addresses
// cannot grow it without bound (at the price of forgetting some counts).
type Memory struct {
	Max     int
	Window  time.Duration
	MaxKeys int
	// Now is the clock; time.Now when nil (tests set it).
	Now func() time.Time

	mu sync.Mutex
	m  map[string]*window
}

type window struct {
	start    time.Time
	failures int
}

// NewMemory returns a Memory limiter allowing max failed attempts per key
// within window.
func NewMemory(max int, window time.Duration) *Memory {
	return &Memory{Max: max, Window: window, MaxKeys: DefaultMaxKeys}
}

func (l *Memory) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// Wait returns the time left in key's window once it has Max failures.
func (l *Memory) Wait(_ context.Context, key string) (time.Duration, error) {
	key = memoryKey(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.m[key]
	if !ok {
		return 0, nil
	}
	left := w.start.Add(l.Window).Sub(l.now())
	if left <= 0 {
		delete(l.m, key)
		return 0, nil
	}
	if w.failures < l.Max {
		return 0, nil
	}
	return left, nil
}

// Fail counts a failure for key, starting a new window when key has none.
func (l *Memory) Fail(_ context.Context, key string) error {
	key = memoryKey(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.m == nil {
		l.m = make(map[string]*window)
	}
	w, ok := l.m[key]
	if !ok || !now.Before(w.start.Add(l.Window)) {
		l.makeRoom(now)
		w = &window{start: now}
		l.m[key] = w
	}
	w.failures++
	return nil
}

// Reset forgets key.
func (l *Memory) Reset(_ context.Context, key string) error {
	key = memoryKey(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, key)
	return nil
}

// maxKeyLen is the longest key a Memory limiter keeps as it is.
const maxKeyLen = 64

// memoryKey returns key, or its SHA-256 when it is longer than maxKeyLen:
// keys hold what clients typed (an identifier may fill a 64 KiB form), and
// MaxKeys bounds their number, not their size. A hashed key is longer than
// maxKeyLen, so it never equals one kept as it is.
func memoryKey(key string) string {
	if len(key) <= maxKeyLen {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// makeRoom keeps len(l.m) below MaxKeys: expired windows go first. A
// full map is brought down to 7/8 of MaxKeys, not just below it, so that
// the walk over every key is paid once per MaxKeys/8 new keys rather than
// at each one: a flood of new keys would otherwise walk the whole map,
// under the lock, at every attempt.
func (l *Memory) makeRoom(now time.Time) {
	limit := l.MaxKeys
	if limit <= 0 {
		limit = DefaultMaxKeys
	}
	if len(l.m) < limit {
		return
	}
	for k, w := range l.m {
		if !now.Before(w.start.Add(l.Window)) {
			delete(l.m, k)
		}
	}
	keep := limit - max(limit/8, 1)
	for k := range l.m {
		if len(l.m) <= keep {
			break
		}
		delete(l.m, k)
	}
}

// IPKey returns the key under which a client address is counted: an IPv4
// address as it is, an IPv6 address as its /64 network, since one
// subscriber usually holds a whole /64 and could otherwise change
// address at every attempt (RFC 6177). Anything else is returned as is.
func IPKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}
