package gatehouse_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// redisClient connects to the test server (GATEHOUSE_TEST_REDIS, a
// redis:// URL, or 127.0.0.1:6379); without one the test fails when CI is
// set and is skipped otherwise.
func redisClient(t *testing.T) *redis.Client {
	t.Helper()
	u := os.Getenv("GATEHOUSE_TEST_REDIS")
	if u == "" {
		u = "redis://127.0.0.1:6379/0"
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("GATEHOUSE_TEST_REDIS: %v", err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Redis at %s cannot be reached (set GATEHOUSE_TEST_REDIS): %v", opt.Addr, err)
		}
		t.Skipf("Redis at %s cannot be reached (set GATEHOUSE_TEST_REDIS, or CI to make this fail): %v", opt.Addr, err)
	}
	return c
}

// TestCredentialsLockoutSharedThroughRedis: two Gatehouse handlers (two
// processes, each with its own Redis connection) share the attempt
// limits: failures on one lock the account out on the other.
func TestCredentialsLockoutSharedThroughRedis(t *testing.T) {
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	c1 := redisClient(t)
	t.Cleanup(func() {
		ctx := context.Background()
		if keys, _ := c1.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			c1.Del(ctx, keys...)
		}
	})
	process := func() *credsApp {
		rdb := redisClient(t)
		return newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
			c.PerIP = &redislimit.Limiter{Client: rdb, Max: 100, Window: time.Hour, Prefix: prefix + "ip:"}
			c.PerIdentifier = &redislimit.Limiter{Client: rdb, Max: 3, Window: 10 * time.Minute, Prefix: prefix + "id:"}
		})
	}
	one, two := process(), process()

	one.post(newBrowser(t), "jane", "wrong")
	two.post(newBrowser(t), "jane", "wrong")
	if loc := one.post(newBrowser(t), "jane", "wrong").Header.Get("Location"); loc != credentialsFailed {
		t.Fatalf("third failure answered %q", loc)
	}
	calls := two.calls.Load()
	b := newBrowser(t)
	locked := two.post(b, "jane", "correct horse")
	if locked.StatusCode != http.StatusTooManyRequests || locked.Header.Get("Retry-After") == "" {
		t.Fatalf("the other process answered %d, Retry-After %q: the lockout is not shared", locked.StatusCode, locked.Header.Get("Retry-After"))
	}
	if two.calls.Load() != calls || b.session(two.app) != nil {
		t.Fatal("Authorize ran, or a session was issued, while locked")
	}
	// Another account is not locked on either.
	if resp := two.post(newBrowser(t), "john", "x"); resp.Header.Get("Location") != credentialsFailed {
		t.Fatalf("other identifier: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestCredentialsFailClosedWithoutRedis: when the limiter cannot be read,
// the attempt is refused and Authorize does not run.
func TestCredentialsFailClosedWithoutRedis(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { rdb.Close() })
	a := newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
		c.PerIdentifier = redislimit.New(rdb, 3, time.Minute)
	})
	b := newBrowser(t)
	resp := a.post(b, "jane", "correct horse")
	if a.calls.Load() != 0 || b.session(a.app) != nil {
		t.Fatalf("signed in with the limiter down (%d Authorize calls)", a.calls.Load())
	}
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=CallbackRouteError") {
		t.Fatalf("answered %d %q, want an error", resp.StatusCode, loc)
	}
}
