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
//
// Reads take no lock and write no shared memory: the entries live in a
// sync.Map, whose Load only reads. A read-write mutex would make every
// Get write its reader count, a cache line that then moves between the
// cores of a busy server on every session read. Writers (Set, Add and
// the pruning) hold mu, so that the size bound and Add's
// check-then-store hold exactly.
type Map[K comparable, V any] struct {
	mu     sync.Mutex // writers only
	max    int
	n      int      // entries stored, expired ones included; mu held
	m      sync.Map // K → *entry[V]
	pruned time.Time
}

type entry[V any] struct {
	v       V
	expires time.Time // zero: never
}

// New returns an empty Map holding at most size entries (at least 1).
func New[K comparable, V any](size int) *Map[K, V] {
	return &Map[K, V]{max: max(size, 1)}
}

func (e *entry[V]) live(now time.Time) bool { return e.expires.IsZero() || now.Before(e.expires) }

// load returns the entry stored under k, or nil.
func (c *Map[K, V]) load(k K) *entry[V] {
	if v, ok := c.m.Load(k); ok {
		return v.(*entry[V])
	}
	return nil
}

// Get returns the value stored under k, unless it has expired.
func (c *Map[K, V]) Get(k K, now time.Time) (V, bool) {
	e := c.load(k)
	if e == nil || !e.live(now) {
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
	if c.load(k) == nil {
		if c.n >= c.max {
			c.prune(now)
			c.m.Range(func(victim, _ any) bool { // Range order: arbitrary entries
				if c.n < c.max {
					return false
				}
				c.m.Delete(victim)
				c.n--
				return true
			})
		}
		c.n++
	}
	c.m.Store(k, &entry[V]{v: v, expires: expires})
}

// Add stores v under k until expires, and reports whether k was absent
// (or expired). A full Map drops expired entries; if it is still full
// of live ones, Add refuses k and reports false (fail closed): a replay
// log never forgets a key before it expires. Of concurrent Adds of one
// key, one reports true: they are serialised by the writers' lock.
func (c *Map[K, V]) Add(k K, v V, expires, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.load(k)
	if e != nil && e.live(now) {
		return false
	}
	if e == nil {
		if c.n >= c.max {
			c.prune(now)
			if c.n >= c.max {
				return false
			}
		}
		c.n++
	}
	c.m.Store(k, &entry[V]{v: v, expires: expires})
	return true
}

// Len returns the number of entries, expired ones included.
func (c *Map[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// prune drops expired entries, at most once per pruneEvery. c.mu is held.
func (c *Map[K, V]) prune(now time.Time) {
	if now.Sub(c.pruned) < pruneEvery && !c.pruned.IsZero() {
		return
	}
	c.pruned = now
	c.m.Range(func(k, v any) bool {
		if !v.(*entry[V]).live(now) {
			c.m.Delete(k)
			c.n--
		}
		return true
	})
}
