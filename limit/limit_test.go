package limit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/limit"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func reserve(t *testing.T, l limit.Limiter, key string) time.Duration {
	t.Helper()
	d, err := l.Reserve(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestMemoryLocksAfterMaxAttemptsUntilTheWindowEnds(t *testing.T) {
	c := newClock()
	l := limit.NewMemory(3, 10*time.Minute)
	l.Now = c.now
	for i := range 3 {
		if d := reserve(t, l, "k"); d != 0 {
			t.Fatalf("attempt %d: wait %v before the limit", i+1, d)
		}
		c.add(time.Minute)
	}
	if d := reserve(t, l, "k"); d != 7*time.Minute {
		t.Fatalf("after 3 attempts: wait %v, want 7m (the rest of the window)", d)
	}
	if d := reserve(t, l, "other"); d != 0 {
		t.Fatalf("another key waits %v", d)
	}
	c.add(7 * time.Minute)
	if d := reserve(t, l, "k"); d != 0 {
		t.Fatalf("after the window: wait %v", d)
	}
}

func TestMemoryResetAndRelease(t *testing.T) {
	ctx := context.Background()
	l := limit.NewMemory(2, time.Hour)
	reserve(t, l, "k")
	reserve(t, l, "k")
	if reserve(t, l, "k") == 0 {
		t.Fatal("not locked after 2 attempts")
	}
	l.Release(ctx, "k")
	if d := reserve(t, l, "k"); d != 0 {
		t.Fatalf("after Release: wait %v, want one attempt back", d)
	}
	if reserve(t, l, "k") == 0 {
		t.Fatal("Release gave back more than one attempt")
	}
	l.Reset(ctx, "k")
	if d := reserve(t, l, "k"); d != 0 {
		t.Fatalf("after Reset: wait %v", d)
	}
}

// TestMemoryReserveIsAtomic: 100 concurrent attempts on one key, 5 go
// ahead. A check-then-count limiter let all 100 through.
func TestMemoryReserveIsAtomic(t *testing.T) {
	l := limit.NewMemory(5, time.Hour)
	var through atomic.Int32
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d, err := l.Reserve(context.Background(), "k"); err == nil && d == 0 {
				through.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := through.Load(); n != 5 {
		t.Fatalf("%d of 100 concurrent attempts went ahead, want 5", n)
	}
}

func TestNoneNeverLimits(t *testing.T) {
	var l limit.None
	for range 100 {
		if d := reserve(t, l, "k"); d != 0 {
			t.Fatalf("None waits %v", d)
		}
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

// TestIdentifierKey: the variants of one address share a count (case,
// +tag, Unicode compatibility forms, spaces).
func TestIdentifierKey(t *testing.T) {
	for in, want := range map[string]string{
		"alice@example.com":     "alice@example.com",
		"  Alice@Example.COM ":  "alice@example.com",
		"alice+tag@example.com": "alice@example.com",
		"ALICE+a+b@example.com": "alice@example.com",
		"ａｌｉｃｅ@example.com":     "alice@example.com", // fullwidth letters (NFKC)
		"+tag@example.com":      "+tag@example.com",  // nothing before the tag: kept
		"Jane":                  "jane",
		"ǅ":                     "dž",
	} {
		if got := limit.IdentifierKey(in); got != want {
			t.Errorf("IdentifierKey(%q) = %q, want %q", in, got, want)
		}
	}
}
