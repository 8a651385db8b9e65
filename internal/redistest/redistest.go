// Package redistest connects the tests of the Redis packages
// (adapter/redisstore, limit/redislimit) to the test server, and gives
// each test keys of its own there.
package redistest

import (
	"context"
	"crypto/rand"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultURL is the test server used when GATEHOUSE_TEST_REDIS is not set.
const DefaultURL = "redis://127.0.0.1:6379/0"

// URL returns the URL of the test server: GATEHOUSE_TEST_REDIS, or
// DefaultURL.
func URL() string {
	if u := os.Getenv("GATEHOUSE_TEST_REDIS"); u != "" {
		return u
	}
	return DefaultURL
}

// NewClient returns a new connection to the test server (each one can
// stand for a process), closed when the test ends. Without a server the
// test fails when CI is set and is skipped otherwise.
func NewClient(tb testing.TB) *redis.Client {
	tb.Helper()
	opt, err := redis.ParseURL(URL())
	if err != nil {
		tb.Fatalf("GATEHOUSE_TEST_REDIS: %v", err)
	}
	c := redis.NewClient(opt)
	tb.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		where := "the server of GATEHOUSE_TEST_REDIS"
		if os.Getenv("GATEHOUSE_TEST_REDIS") == "" {
			where = opt.Addr
		}
		if os.Getenv("CI") != "" {
			tb.Fatalf("Redis at %s cannot be reached (set GATEHOUSE_TEST_REDIS): %v", where, err)
		}
		tb.Skipf("Redis at %s cannot be reached (set GATEHOUSE_TEST_REDIS, or CI to make this fail): %v", where, err)
	}
	return c
}

// Prefix returns a key prefix of the test's own, whose keys are deleted
// when it ends.
func Prefix(tb testing.TB, c *redis.Client) string {
	p := "gatehouse-test:" + rand.Text() + ":"
	tb.Cleanup(func() {
		if keys := KeysUnder(tb, c, p); len(keys) > 0 {
			c.Del(context.Background(), keys...)
		}
	})
	return p
}

// KeysUnder returns the keys that start with prefix.
func KeysUnder(tb testing.TB, c *redis.Client, prefix string) []string {
	tb.Helper()
	var keys []string
	iter := c.Scan(context.Background(), 0, prefix+"*", 100).Iterator()
	for iter.Next(context.Background()) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		tb.Fatal(err)
	}
	return keys
}
