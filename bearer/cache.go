package bearer

import (
	"sync"
	"time"
)

// tokenCache remembers verified tokens by the SHA-256 of their exact text,
// each until its exp (or the introspection cache age), bounded in entries.
type tokenCache struct {
	mu  sync.RWMutex
	max int
	m   map[[32]byte]cached
}

type cached struct {
	token *Token
	key   *key // nil for introspected tokens
	until time.Time
}

// newTokenCache returns a cache of at most max entries; nil (no caching)
// when max is negative.
func newTokenCache(max int) *tokenCache {
	if max < 0 {
		return nil
	}
	return &tokenCache{max: max, m: make(map[[32]byte]cached)}
}

// get returns the cached token for sum, if it has not expired and, for a
// signed token, the current key set still holds the key that verified it:
// a key removed from the issuer's JWKS stops vouching for cached tokens
// as soon as the set is refetched.
func (c *tokenCache) get(sum [32]byte, now time.Time, keys *keySet) *Token {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	e, ok := c.m[sum]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) || (e.key != nil && !keys.holds(e.key, now)) {
		return nil
	}
	return e.token
}

// put stores t until until. A full cache first drops expired entries,
// then arbitrary ones (Go's map order) down to 90% of its size, so that
// it stays bounded whatever tokens arrive and a full cache is not swept
// on every insert.
func (c *tokenCache) put(sum [32]byte, t *Token, k *key, until, now time.Time) {
	if c == nil || c.max == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		for s, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, s)
			}
		}
		for s := range c.m {
			if len(c.m) <= c.max-c.max/10-1 {
				break
			}
			delete(c.m, s)
		}
	}
	c.m[sum] = cached{token: t, key: k, until: until}
}
