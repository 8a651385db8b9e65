package configkey

import (
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
)

// Cache keeps what was built from a configuration, by the configuration's
// key (Of), up to a bound; the least recently used goes first.
type Cache[C, V any] struct {
	mu sync.Mutex // one build at a time
	m  *bounded.Map[string, entry[C, V]]
}

// entry is a built value with the configuration it was built from. The
// configuration is kept so that everything its key identifies by address
// (an HTTPClient, a Logger, closures) stays allocated while the key is in
// the cache: freed, its address could be given to another value, whose
// configuration would then find this entry.
type entry[C, V any] struct {
	v   V
	cfg C
}

// NewCache returns a cache of at most size values.
func NewCache[C, V any](size int) *Cache[C, V] {
	return &Cache[C, V]{m: bounded.New[string, entry[C, V]](size)}
}

// Get returns the value built from cfg, building it with build the first
// time. A failed build is not kept.
func (c *Cache[C, V]) Get(cfg C, build func(C) (V, error)) (V, error) {
	k := Of(cfg) // the whole configuration, hashed
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if e, ok := c.m.Get(k, now); ok {
		return e.v, nil
	}
	v, err := build(cfg)
	if err != nil {
		return v, err
	}
	c.m.Set(k, entry[C, V]{v: v, cfg: cfg}, time.Time{}, now)
	return v, nil
}
