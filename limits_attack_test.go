package gatehouse_test

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// guessConcurrently sends n wrong passwords for jane at once, spread over
// the apps, each from its own browser.
func guessConcurrently(t *testing.T, n int, apps ...*credsApp) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		a := apps[i%len(apps)]
		b := newBrowser(t)
		csrf := b.csrf(a.app)
		wg.Go(func() {
			resp := b.post(a.url+"/auth/callback/credentials", url.Values{
				"csrfToken": {csrf}, "username": {"jane"}, "password": {"wrong"}})
			resp.Body.Close()
		})
	}
	wg.Wait()
}

// slowHash makes Authorize take as long as a password hash does, which is
// the window a check-then-count limiter leaves open.
func slowHash(cc *credentials.Config) {
	check := cc.Authorize
	cc.Authorize = func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
		time.Sleep(30 * time.Millisecond)
		return check(ctx, c, r)
	}
}

// TestAttackConcurrentGuessesMemory: 100 concurrent wrong passwords for
// one identifier reach Authorize at most 5 times (the default limit).
// Failed before reserving: all 100 reached it.
func TestAttackConcurrentGuessesMemory(t *testing.T) {
	a := newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) { slowHash(cc) })
	guessConcurrently(t, 100, a)
	if n := a.calls.Load(); n > credentials.DefaultPerIdentifierAndIP {
		t.Fatalf("Authorize ran %d times for 100 concurrent guesses, want at most %d", n, credentials.DefaultPerIdentifierAndIP)
	}
	t.Logf("Authorize ran %d times for 100 concurrent guesses", a.calls.Load())
}

// TestAttackConcurrentGuessesRedis: the same across two handler instances
// sharing Redis limiters: at most 5 in all.
func TestAttackConcurrentGuessesRedis(t *testing.T) {
	prefix := "gatehouse:test:" + t.Name() + ":" + rand.Text() + ":"
	c := redisClient(t) // below
	t.Cleanup(func() {
		ctx := context.Background()
		if keys, _ := c.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
			c.Del(ctx, keys...)
		}
	})
	instance := func() *credsApp {
		rdb := redisClient(t)
		return newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) {
			slowHash(cc)
			cc.PerIP = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIP, Window: time.Hour, Prefix: prefix + "ip:"}
			cc.PerIdentifierAndIP = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifierAndIP, Window: time.Hour, Prefix: prefix + "idip:"}
			cc.PerIdentifier = &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifier, Window: time.Hour, Prefix: prefix + "id:"}
		})
	}
	one, two := instance(), instance()
	guessConcurrently(t, 100, one, two)
	if n := one.calls.Load() + two.calls.Load(); n > credentials.DefaultPerIdentifierAndIP {
		t.Fatalf("Authorize ran %d times for 100 concurrent guesses on two instances, want at most %d", n, credentials.DefaultPerIdentifierAndIP)
	}
	t.Logf("Authorize ran %d+%d times for 100 concurrent guesses on two instances", one.calls.Load(), two.calls.Load())
}

// TestAttackLockoutFromAnotherAddress: an attacker who exhausts the
// attempts for jane from one address does not lock jane out from hers
// (ASVS 2.2.1). Failed before: the per-identifier lockout held everywhere.
func TestAttackLockoutFromAnotherAddress(t *testing.T) {
	a := newCredsApp(t, func(_ *gatehouse.Config, cc *credentials.Config) {
		cc.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-Client") }
	})
	post := func(ip, pass string) *http.Response {
		b := newBrowser(t)
		form := url.Values{"csrfToken": {b.csrf(a.app)}, "username": {"jane"}, "password": {pass}}
		req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/credentials", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Test-Client", ip)
		resp := b.do(req)
		resp.Body.Close()
		return resp
	}
	for range 10 {
		post("198.51.100.7", "wrong")
	}
	if resp := post("198.51.100.7", "correct horse"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the attacker's address answered %d, want 429", resp.StatusCode)
	}
	if resp := post("203.0.113.9", "correct horse"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/private" && resp.Header.Get("Location") != a.url+"/private" && resp.Header.Get("Location") != a.url+"/" {
		t.Fatalf("the real user, on another address, answered %d to %q: locked out", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestAttackEmailLimitVariants: +tags, case and Unicode forms of one
// address share its send limit. Failed before: each variant had its own.
func TestAttackEmailLimitVariants(t *testing.T) {
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.PerIdentifier = limit.NewMemory(2, time.Hour)
		e.PerIP = limit.NewMemory(100, time.Hour)
	})
	b := newBrowser(t)
	sent := 0
	for _, addr := range []string{"victim@example.com", "victim+1@example.com", "VICTIM+2@example.com", "ｖｉｃｔｉｍ+3@example.com", "victim+4@Example.COM"} {
		resp := m.requestLink(b, addr, "/")
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			sent++
		}
	}
	if sent != 2 || len(m.mail.Messages()) != 2 {
		t.Fatalf("%d requests accepted, %d mails sent for variants of one address, want 2", sent, len(m.mail.Messages()))
	}
}

// TestAttackSignInFlood: sign-in starts, callbacks and passkey options
// from one address past Config.RateLimit answer 429 with Retry-After.
// Failed before: there was no such limit.
func TestAttackSignInFlood(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.RateLimit = limit.NewMemory(3, time.Minute) })
	b := newBrowser(t)
	csrf := b.csrf(a)
	var last *http.Response
	for range 4 {
		last = b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {csrf}})
		last.Body.Close()
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("4th sign-in start: %d, Retry-After %q; want 429 with Retry-After", last.StatusCode, last.Header.Get("Retry-After"))
	}
	if resp := b.get(a.url + "/auth/callback/dev?code=x&state=y"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("callback past the limit: %d", resp.StatusCode)
	}
}

// TestRateLimiterErrorRefuses: a limiter that fails refuses (fail closed).
func TestRateLimiterErrorRefuses(t *testing.T) {
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) { c.RateLimit = brokenLimiter{} })
	b := newBrowser(t)
	resp := b.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {b.csrf(a)}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("with a failing limiter the sign-in start answered %d", resp.StatusCode)
	}
}

type brokenLimiter struct{}

func (brokenLimiter) Reserve(context.Context, string) (time.Duration, error) {
	return 0, errors.New("store down")
}
func (brokenLimiter) Release(context.Context, string) error { return errors.New("store down") }
func (brokenLimiter) Reset(context.Context, string) error   { return errors.New("store down") }

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
