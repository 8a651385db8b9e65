// Package limit counts sign-in attempts and tells when a client or an
// account must wait before it may try again: the brute-force defence of
// the credentials provider (OWASP ASVS 2.2.1, 6.3.1; NIST SP 800-63B
// §5.2.2), and the rate limits of sign-in starts, callbacks, e-mails and
// passkey ceremonies.
//
// An attempt is reserved before it is made: Reserve counts it and says
// whether it may go ahead, in one atomic step, so that N concurrent
// attempts get at most Max through, where "check the count, verify, then
// count the failure" would let all N through. A success gives its attempt
// back (Release) or clears the key (Reset).
//
// A Limiter is keyed by strings the caller chooses, such as "ip:192.0.2.1"
// or "id:alice@example.com" (IPKey and IdentifierKey make them). Memory is
// the in-process default; a deployment with several processes gives all
// of them one shared Limiter through the same interface, such as package
// redislimit's, kept in Redis.
//
//	l := limit.NewMemory(5, 15*time.Minute) // 5 attempts per 15 minutes
//	if wait, err := l.Reserve(ctx, key); err != nil || wait > 0 {
//		// refuse, with Retry-After: wait (fail closed on err)
//	}
//	if check(password) {
//		l.Reset(ctx, key) // a success: the count starts again
//	}
package limit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/unicode/norm"
)

// Limiter counts attempts per key. Every method is safe for concurrent
// use, and Reserve is atomic: of N concurrent calls for one key, at most
// the number of attempts left go ahead, in one process or, with a shared
// store, across processes.
type Limiter interface {
	// Reserve counts an attempt for key and returns 0 when it may go
	// ahead; when key has no attempt left it counts nothing and returns
	// how long key must wait.
	Reserve(ctx context.Context, key string) (time.Duration, error)
	// Release gives back an attempt Reserve counted that should not
	// count after all (it succeeded, or it was refused by another limit).
	Release(ctx context.Context, key string) error
	// Reset forgets key's attempts, after a success.
	Reset(ctx context.Context, key string) error
}

// None is a Limiter that never limits: it switches a limit off.
type None struct{}

// Reserve returns 0.
func (None) Reserve(context.Context, string) (time.Duration, error) { return 0, nil }

// Release does nothing.
func (None) Release(context.Context, string) error { return nil }

// Reset does nothing.
func (None) Reset(context.Context, string) error { return nil }

// DefaultMaxKeys bounds how many keys a Memory limiter tracks.
const DefaultMaxKeys = 1 << 20

// Memory is a Limiter in the process's memory: at most Max attempts per
// key within Window, counted from the key's first attempt. Once Max are
// counted the key waits until its window ends; then it starts afresh. A
// success (Reset) clears the key at once.
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
	attempts int
}

// NewMemory returns a Memory limiter allowing max attempts per key within
// window.
func NewMemory(max int, window time.Duration) *Memory {
	return &Memory{Max: max, Window: window, MaxKeys: DefaultMaxKeys}
}

func (l *Memory) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// Reserve counts an attempt for key, under one lock: the check and the
// count are one step.
func (l *Memory) Reserve(_ context.Context, key string) (time.Duration, error) {
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
	if w.attempts >= l.Max {
		return w.start.Add(l.Window).Sub(now), nil
	}
	w.attempts++
	return 0, nil
}

// Release takes back one attempt of key.
func (l *Memory) Release(_ context.Context, key string) error {
	key = memoryKey(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.m[key]; ok && w.attempts > 0 {
		w.attempts--
	}
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
	if a.Is4() && !strings.ContainsAny(ip, ":%") {
		return ip // ParseAddr takes IPv4 only in canonical dotted form: no new string
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

// IdentifierKey returns the form of an account identifier under which its
// attempts are counted, so that variants of one account share a count:
// Unicode NFKC, trimmed, lower-cased, and for an e-mail address the
// "+tag" of the local part dropped (alice+1@example.com and
// ALICE@example.com count as alice@example.com). It is only a counting
// key: the address a mail goes to, and the one stored, are not changed.
func IdentifierKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(norm.NFKC.String(s)))
	local, domain, ok := strings.Cut(s, "@")
	if !ok {
		return s
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local + "@" + domain
}

// Attempt is one limit an attempt must pass: a Limiter and the key it is
// counted under.
type Attempt struct {
	Limiter Limiter
	Key     string
}

// ReserveAll reserves an attempt under every limit, in order. When one
// refuses (its wait is returned) or fails (its error is returned), the
// attempts already reserved are given back, so that a refused attempt is
// counted nowhere. Callers must treat an error as a refusal (fail closed).
func ReserveAll(ctx context.Context, limits ...Attempt) (time.Duration, error) {
	for i, a := range limits {
		wait, err := a.Limiter.Reserve(ctx, a.Key)
		if err != nil || wait > 0 {
			for _, done := range limits[:i] {
				_ = done.Limiter.Release(ctx, done.Key) // best effort: over-counting is the safe side
			}
			return wait, err
		}
	}
	return 0, nil
}

// Backend makes limiters: one place that says where every count of a
// Handler lives. gatehouse.Config.Limits takes one, and makes each limit
// it uses by default (the rate limit; the credentials, e-mail and
// password-account attempt limits; two-factor's; the log of used passkey
// challenges) with the default numbers, under the limit's own name, so
// that swapping the backend changes where counts live and nothing else.
type Backend interface {
	// Limiter returns the limiter called name, allowing max attempts per
	// key within window. Each name is a namespace of its own: keys of two
	// limits never meet.
	Limiter(name string, max int, window time.Duration) Limiter
}

// InMemory is the Backend of Memory limiters, each in this process's
// memory: the default.
type InMemory struct{}

// Limiter returns NewMemory(max, window).
func (InMemory) Limiter(_ string, max int, window time.Duration) Limiter {
	return NewMemory(max, window)
}
