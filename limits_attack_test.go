package gatehouse_test

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

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
	c := redisClient(t) // redislimit_test.go
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
