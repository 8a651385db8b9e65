package redislimit_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
)

// reserve counts an attempt and returns 0, or returns the wait of a key
// with no attempt left.
func reserve(t *testing.T, l *redislimit.Limiter, key string) time.Duration {
	t.Helper()
	d, err := l.Reserve(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// twoProcesses returns two limiters on two connections with one prefix.
func twoProcesses(t *testing.T, max int, window time.Duration) (a, b *redislimit.Limiter) {
	c1, c2 := redistest.NewClient(t), redistest.NewClient(t)
	p := redistest.Prefix(t, c1)
	a = &redislimit.Limiter{Client: c1, Max: max, Window: window, Prefix: p}
	b = &redislimit.Limiter{Client: c2, Max: max, Window: window, Prefix: p}
	return a, b
}

func TestLockoutHoldsAcrossProcesses(t *testing.T) {
	a, b := twoProcesses(t, 3, time.Hour)
	const key = "id:credentials:jane@example.com"
	for i, l := range []*redislimit.Limiter{a, b, a} {
		if d := reserve(t, l, key); d != 0 {
			t.Fatalf("attempt %d of 3: wait %v", i+1, d)
		}
	}
	for name, l := range map[string]*redislimit.Limiter{"a": a, "b": b} {
		d := reserve(t, l, key)
		if d <= 59*time.Minute || d > time.Hour {
			t.Fatalf("process %s after 3 attempts (2 on a, 1 on b): wait %v, want the rest of the 1h window", name, d)
		}
	}
	if d := reserve(t, b, "id:credentials:other@example.com"); d != 0 {
		t.Fatalf("another key waits %v", d)
	}
}

func TestReserveReturnsTheRestOfTheWindow(t *testing.T) {
	a, _ := twoProcesses(t, 1, 10*time.Minute)
	start := time.Now()
	reserve(t, a, "k")
	// The window started at the attempt, so what is left lies between
	// 10 minutes and 10 minutes less the time since.
	d := reserve(t, a, "k")
	if d > 10*time.Minute || d < 10*time.Minute-time.Since(start)-time.Minute {
		t.Fatalf("wait %v, want just under 10m", d)
	}
	// Refused attempts are not counted and do not extend the window.
	if d2 := reserve(t, a, "k"); d2 > d {
		t.Fatalf("a refused attempt moved the window's end: %v then %v", d, d2)
	}
}

func TestResetAndReleaseForEveryProcess(t *testing.T) {
	ctx := context.Background()
	a, b := twoProcesses(t, 2, time.Hour)
	reserve(t, a, "k")
	reserve(t, b, "k")
	if reserve(t, b, "k") == 0 {
		t.Fatal("not locked after 2 attempts")
	}
	if err := a.Release(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if d := reserve(t, b, "k"); d != 0 {
		t.Fatalf("after Release on a: b waits %v, want one attempt back", d)
	}
	if reserve(t, b, "k") == 0 {
		t.Fatal("Release gave back more than one attempt")
	}
	if err := a.Reset(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if d := reserve(t, b, "k"); d != 0 {
		t.Fatalf("after Reset on a: b waits %v", d)
	}
}

func TestWindowExpires(t *testing.T) {
	a, b := twoProcesses(t, 2, 300*time.Millisecond)
	reserve(t, a, "k")
	reserve(t, b, "k")
	if reserve(t, a, "k") == 0 {
		t.Fatal("not locked after 2 attempts")
	}
	// Poll: the lock must lift once the window ends (Redis expires the
	// key); the deadline is generous so that a slow machine does not flake.
	deadline := time.Now().Add(10 * time.Second)
	for reserve(t, b, "k") > 0 {
		if time.Now().After(deadline) {
			t.Fatal("still locked 10s after a 300ms window")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConcurrentAttemptsGoAheadAtMostMax: 200 concurrent attempts on one
// key from two processes, Max 5: exactly 5 go ahead. A check, then count
// limiter let them all through.
func TestConcurrentAttemptsGoAheadAtMostMax(t *testing.T) {
	a, b := twoProcesses(t, 5, time.Hour)
	ctx := context.Background()
	var wg sync.WaitGroup
	var through, errs atomic.Int32
	for i := range 200 {
		l := a
		if i%2 == 1 {
			l = b
		}
		wg.Go(func() {
			d, err := l.Reserve(ctx, "k")
			switch {
			case err != nil:
				errs.Add(1)
			case d == 0:
				through.Add(1)
			}
		})
	}
	wg.Wait()
	if errs.Load() != 0 || through.Load() != 5 {
		t.Fatalf("%d of 200 concurrent attempts went ahead (%d errors), want 5", through.Load(), errs.Load())
	}
}

func TestKeysAreHashed(t *testing.T) {
	a, _ := twoProcesses(t, 5, time.Hour)
	const addr = "Secret.Person+tag@example.com"
	reserve(t, a, "id:email:"+addr)
	ctx := context.Background()
	keys, err := a.Client.Keys(ctx, a.Prefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 {
		t.Fatalf("keys under the prefix: %q, want one", keys)
	}
	if !strings.HasPrefix(keys[0], a.Prefix) || len(keys[0]) != len(a.Prefix)+64 {
		t.Fatalf("key %q: want the prefix and a hex SHA-256", keys[0])
	}
	// Nowhere in Redis: not in a key name, not in a value.
	all, err := a.Client.Keys(ctx, "*"+addr+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 0 {
		t.Fatalf("the address is in Redis key names: %q", all)
	}
	v, err := a.Client.Get(ctx, keys[0]).Result()
	if err != nil || v != "1" {
		t.Fatalf("value %q, %v: want the count 1 and nothing else", v, err)
	}
	if ttl := a.Client.PTTL(ctx, keys[0]).Val(); ttl <= 0 || ttl > time.Hour {
		t.Fatalf("TTL %v: want the window", ttl)
	}
}

func TestPrefixDefaultsAndSeparatesLimits(t *testing.T) {
	c := redistest.NewClient(t)
	p := redistest.Prefix(t, c)
	one := &redislimit.Limiter{Client: c, Max: 1, Window: time.Hour, Prefix: p + "one:"}
	two := &redislimit.Limiter{Client: c, Max: 1, Window: time.Hour, Prefix: p + "two:"}
	reserve(t, one, "k")
	if reserve(t, one, "k") == 0 {
		t.Fatal("not locked after 1 attempt")
	}
	if d := reserve(t, two, "k"); d != 0 {
		t.Fatalf("a limiter with another prefix waits %v", d)
	}
	if p := redislimit.New(c, 1, time.Hour).Prefix; p != "" {
		t.Fatalf("New set Prefix %q", p)
	}
}

func TestRedisErrorsAreReturned(t *testing.T) {
	// A server that is not there: every method returns an error, so that
	// the caller can refuse rather than let attempts through uncounted.
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	l := redislimit.New(c, 3, time.Minute)
	ctx := context.Background()
	if d, err := l.Reserve(ctx, "k"); err == nil {
		t.Fatalf("Reserve without a server: %v, nil error", d)
	}
	if err := l.Release(ctx, "k"); err == nil {
		t.Fatal("Release without a server: nil error")
	}
	if err := l.Reset(ctx, "k"); err == nil {
		t.Fatal("Reset without a server: nil error")
	}
	// A limiter that cannot count says so.
	for _, bad := range []*redislimit.Limiter{{Max: 1, Window: time.Minute}, {Client: c, Window: time.Minute}, {Client: c, Max: 1}} {
		if _, err := bad.Reserve(ctx, "k"); err == nil {
			t.Fatalf("Reserve on %+v: nil error", bad)
		}
	}
}

// TestReserveRefusesInTheWindowsLastMillisecond: in the last millisecond
// of a window Redis's PTTL answers 0 (a key expires only once the clock
// is past its expiry, and PTTL never answers below 0). A key with no
// attempt left was then answered 0, "go ahead", and the attempt was not
// counted: every attempt landing in that millisecond went through. The
// clock cannot be held at that millisecond, so the script runs with
// PTTL's answer replaced by 0.
func TestReserveRefusesInTheWindowsLastMillisecond(t *testing.T) {
	src := strings.Replace(redislimit.ReserveLua, "redis.call('PTTL', KEYS[1])", "0", 1)
	if src == redislimit.ReserveLua {
		t.Fatal("the Reserve script no longer calls PTTL as this test expects")
	}
	c := redistest.NewClient(t)
	key := redistest.Prefix(t, c) + "k"
	ctx := context.Background()
	const max = 3
	if err := c.Set(ctx, key, max, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	ms, err := redis.NewScript(src).Run(ctx, c, []string{key}, max, time.Minute.Milliseconds()).Int64()
	if err != nil {
		t.Fatal(err)
	}
	if ms <= 0 {
		t.Fatalf("a key with no attempt left, in its window's last millisecond: answered %d, want a wait", ms)
	}
	if n, err := c.Get(ctx, key).Int(); err != nil || n != max {
		t.Fatalf("count %d, %v after a refused attempt: want %d", n, err, max)
	}
}

// TestBackendNamespaces: two limits of one Backend never share a count,
// even for the same key; one limit is shared by every client (instance).
func TestBackendNamespaces(t *testing.T) {
	c1, c2 := redistest.NewClient(t), redistest.NewClient(t)
	p := redistest.Prefix(t, c1)
	ctx := context.Background()
	perIP := redislimit.Backend{Client: c1, Prefix: p}.Limiter("credentials-per-ip", 1, time.Minute)
	sends := redislimit.Backend{Client: c1, Prefix: p}.Limiter("email-sends-per-ip", 1, time.Minute)
	other := redislimit.Backend{Client: c2, Prefix: p}.Limiter("credentials-per-ip", 1, time.Minute)
	if wait, err := perIP.Reserve(ctx, "ip:192.0.2.1"); err != nil || wait != 0 {
		t.Fatalf("first attempt: %v %v", wait, err)
	}
	if wait, err := sends.Reserve(ctx, "ip:192.0.2.1"); err != nil || wait != 0 {
		t.Fatalf("another limit's first attempt for the same key: %v %v (counts shared)", wait, err)
	}
	if wait, err := other.Reserve(ctx, "ip:192.0.2.1"); err != nil || wait <= 0 {
		t.Fatalf("the same limit on another instance: %v %v, want refused", wait, err)
	}
}
