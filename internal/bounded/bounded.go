// Package bounded is Gatehouse's one in-memory cache: a map with a size
// bound and an expiry for each entry, safe for concurrent use. Every
// table the library keeps in memory (decrypted session tokens, session
// JSON, replay logs of logout tokens and passkey challenges, DPoP nonces,
// recent refreshes) is one of these, so that none can grow without bound
// whatever a client sends. (gatehouse.Auth's few Handlers, keyed by the
// application's own Configs rather than by anything a client sends, are
// a small LRU of their own: internal/lru.)
//
// A full Map makes room in two ways, chosen by the call: Set (a cache)
// forgets other entries, Add (a replay log) refuses the new key instead,
// because forgetting a key before its expiry would let it be replayed.
package bounded

import (
	"sync"
	"time"
)

// pruneEvery bounds how often a full Map looks for expired entries: a
// sweep is linear in the size, and a flood of new keys must not make
// every insertion pay for one.
const pruneEvery = time.Second

// Map is a bounded map from K to V with an expiry per entry. The zero
// value is not usable; make one with New.
type Map[K comparable, V any] struct {
	mu     sync.RWMutex
	max    int
	m      map[K]entry[V]
	pruned time.Time
}

type entry[V any] struct {
	v       V
	expires time.Time // zero: never
}

// New returns an empty Map holding at most size entries (at least 1).
func New[K comparable, V any](size int) *Map[K, V] {
	return &Map[K, V]{max: max(size, 1), m: map[K]entry[V]{}}
}

func (e entry[V]) live(now time.Time) bool { return e.expires.IsZero() || now.Before(e.expires) }

// Get returns the value stored under k, unless it has expired.
func (c *Map[K, V]) Get(k K, now time.Time) (V, bool) {
	c.mu.RLock()
	e, ok := c.m[k]
	c.mu.RUnlock()
	if !ok || !e.live(now) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Set stores v under k until expires (zero: until it is pushed out). A
// full Map drops expired entries, and if that is not enough, arbitrary
// ones: a cache may forget.
func (c *Map[K, V]) Set(k K, v V, expires, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		c.prune(now)
		for victim := range c.m { // map order: an arbitrary entry
			if len(c.m) < c.max {
				break
			}
			delete(c.m, victim)
		}
	}
	c.m[k] = entry[V]{v: v, expires: expires}
}

// Add stores v under k until expires, and reports whether k was absent
// (or expired). A full Map drops expired entries; if it is still full
// of live ones, Add refuses k and reports false (fail closed): a replay
// log never forgets a key before it expires.
func (c *Map[K, V]) Add(k K, v V, expires, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok && e.live(now) {
		return false
	}
	if len(c.m) >= c.max {
		c.prune(now)
		if len(c.m) >= c.max {
			return false
		}
	}
	c.m[k] = entry[V]{v: v, expires: expires}
	return true
}

// Len returns the number of entries, expired ones included.
func (c *Map[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// prune drops expired entries, at most once per pruneEvery. c.mu is held.
func (c *Map[K, V]) prune(now time.Time) {
	if now.Sub(c.pruned) < pruneEvery && !c.pruned.IsZero() {
		return
	}
	c.pruned = now
	for k, e := range c.m {
		if !e.live(now) {
			delete(c.m, k)
		}
	}
}
