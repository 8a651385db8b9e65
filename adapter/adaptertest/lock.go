package adaptertest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// testLockAccount: the optional adapter.AccountLocker lets one holder at
// a time run for an account, and does not hold up other accounts.
func testLockAccount(t *testing.T, a adapter.Adapter) {
	l := implements[adapter.AccountLocker](t, a)
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			err := l.LockAccount(ctx(t), "lockprov", "acct-1", func(context.Context) error {
				n := inside.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(5 * time.Millisecond)
				inside.Add(-1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m != 1 {
		t.Fatalf("%d holders of one account's lock at once, want 1", m)
	}
	// Another account is not held up by a held lock.
	err := l.LockAccount(ctx(t), "lockprov", "acct-1", func(c context.Context) error {
		done := make(chan error, 1)
		go func() {
			done <- l.LockAccount(c, "lockprov", "acct-2", func(context.Context) error { return nil })
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Error("the lock of one account held up another")
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// A waiter gives up when its context ends.
	err = l.LockAccount(ctx(t), "lockprov", "acct-3", func(context.Context) error {
		c, cancel := context.WithTimeout(ctx(t), 50*time.Millisecond)
		defer cancel()
		if err := l.LockAccount(c, "lockprov", "acct-3", func(context.Context) error { return nil }); err == nil {
			t.Error("a second holder got a held lock")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
