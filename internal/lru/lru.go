// Package lru is a small cache of values built on first use, the least
// recently used dropped first when it is full: gatehouse.Auth's Handlers,
// keyed by the application's own Configs. (Tables keyed by what clients
// send are internal/bounded Maps, with an expiry per entry.)
package lru

import (
	"sync"
	"sync/atomic"
)

// Cache holds at most a fixed number of values by key, safe for
// concurrent use. It is an exact LRU: each entry carries the tick of its
// last use, and a full cache drops the smallest, a linear scan made only
// when a value is built, which suits a few entries. The key asked for
// last is found without the lock and without hashing, by one comparison:
// a program that passes one Config to Auth on every call never waits for
// another's. The zero value is not usable; make one with New.
type Cache[K comparable, V any] struct {
	mu   sync.Mutex // held while a value is built: one build at a time
	m    map[K]*entry[V]
	size int
	tick atomic.Uint64
	last atomic.Pointer[hit[K, V]] // the entry last asked for; nil once it is dropped
}

type entry[V any] struct {
	v    V
	used atomic.Uint64 // the tick of its last use
}

// hit is an entry with its key.
type hit[K comparable, V any] struct {
	k K
	e *entry[V]
}

// New returns an empty Cache holding at most size values (at least 1).
func New[K comparable, V any](size int) *Cache[K, V] {
	return &Cache[K, V]{m: make(map[K]*entry[V], size), size: max(size, 1)}
}

// Get returns the value under k, made with build on first use. A failed
// build is not kept. evicted reports that the least recently used value
// was dropped to make room for the new one.
func (c *Cache[K, V]) Get(k K, build func() (V, error)) (v V, evicted bool, err error) {
	if l := c.last.Load(); l != nil && l.k == k {
		l.e.used.Store(c.tick.Add(1))
		return l.e.v, false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		e.used.Store(c.tick.Add(1))
		c.last.Store(&hit[K, V]{k, e})
		return e.v, false, nil
	}
	if v, err = build(); err != nil {
		return v, false, err
	}
	if len(c.m) >= c.size {
		var oldest K
		least := ^uint64(0)
		for key, e := range c.m {
			if u := e.used.Load(); u < least {
				oldest, least = key, u
			}
		}
		if l := c.last.Load(); l != nil && l.e == c.m[oldest] {
			c.last.Store(nil)
		}
		delete(c.m, oldest)
		evicted = true
	}
	e := &entry[V]{v: v}
	e.used.Store(c.tick.Add(1))
	c.m[k] = e
	c.last.Store(&hit[K, V]{k, e})
	return v, evicted, nil
}

// Len returns the number of values held.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
