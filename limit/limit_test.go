package limit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/limit"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func wait(t *testing.T, l limit.Limiter, key string) time.Duration {
	t.Helper()
	d, err := l.Wait(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestMemoryLocksAfterMaxFailuresUntilTheWindowEnds(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	l := limit.NewMemory(3, 10*time.Minute)
	l.Now = c.now
	for i := range 3 {
		if d := wait(t, l, "k"); d != 0 {
			t.Fatalf("attempt %d: wait %v before the limit", i+1, d)
		}
		l.Fail(ctx, "k")
		c.add(time.Minute)
	}
	if d := wait(t, l, "k"); d != 7*time.Minute {
		t.Fatalf("after 3 failures: wait %v, want 7m (the rest of the window)", d)
	}
	if d := wait(t, l, "other"); d != 0 {
		t.Fatalf("another key waits %v", d)
	}
	c.add(7 * time.Minute)
	if d := wait(t, l, "k"); d != 0 {
		t.Fatalf("after the window: wait %v", d)
	}
	l.Fail(ctx, "k")
	if d := wait(t, l, "k"); d != 0 {
		t.Fatalf("one failure in a new window: wait %v", d)
	}
}

func TestMemoryResetClearsTheKey(t *testing.T) {
	ctx := context.Background()
	l := limit.NewMemory(2, time.Hour)
	l.Fail(ctx, "k")
	l.Fail(ctx, "k")
	if wait(t, l, "k") == 0 {
		t.Fatal("not locked after 2 failures")
	}
	l.Reset(ctx, "k")
	if d := wait(t, l, "k"); d != 0 {
		t.Fatalf("after Reset: wait %v", d)
	}
}

func TestMemoryIsBounded(t *testing.T) {
	ctx := context.Background()
	l := limit.NewMemory(1, time.Hour)
	l.MaxKeys = 100
	for i := range 1000 {
		l.Fail(ctx, fmt.Sprint(i))
	}
	n := 0
	for i := range 1000 {
		if wait(t, l, fmt.Sprint(i)) > 0 {
			n++
		}
	}
	if n > 100 || n == 0 {
		t.Fatalf("%d keys tracked, want 1..100", n)
	}
}

func TestNoneNeverLimits(t *testing.T) {
	var l limit.None
	for range 100 {
		l.Fail(context.Background(), "k")
	}
	if d := wait(t, l, "k"); d != 0 {
		t.Fatalf("None waits %v", d)
	}
}

func TestIPKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":                 "192.0.2.7",
		"::ffff:192.0.2.7":          "192.0.2.7",
		"2001:db8:1:2:3:4:5:6":      "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff::1": "2001:db8:1:2::/64",
		"fe80::1%eth0":              "fe80::/64",
		"not an address":            "not an address",
	} {
		if got := limit.IPKey(in); got != want {
			t.Errorf("IPKey(%q) = %q, want %q", in, got, want)
		}
	}
}
