package redisstore_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/adaptertest"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
)

// TestConformance runs the adapter suite on the store over each primary.
func TestConformance(t *testing.T) {
	c := redistest.NewClient(t)
	primaries := []struct {
		name string
		open func(t *testing.T) adapter.Adapter
	}{
		{"memory", func(*testing.T) adapter.Adapter { return memory.New() }},
		{"sqlite", func(t *testing.T) adapter.Adapter {
			return dbtest.SQLite(t, "")
		}},
	}
	for _, p := range primaries {
		t.Run(p.name, func(t *testing.T) {
			adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
				return redisstore.New(c, p.open(t), redisstore.Options{Prefix: redistest.Prefix(t, c)})
			})
		})
	}
}

// bare is a primary with none of the optional method sets.
type bare struct{ adapter.Adapter }

// TestOptionalInterfaces: the store hands on the optional method sets the
// primary has, and has its own revokers and lock whatever the primary.
func TestOptionalInterfaces(t *testing.T) {
	cases := []struct {
		name                 string
		primary              adapter.Adapter
		authenticators, migr bool
	}{
		{"memory", memory.New(), true, false},
		{"sqlite", dbtest.SQLite(t, ""), true, true},
		{"bare", bare{memory.New()}, false, false},
	}
	for _, tc := range cases {
		a := redisstore.New(nil, tc.primary, redisstore.Options{})
		if _, ok := a.(adapter.AuthenticatorAdapter); ok != tc.authenticators {
			t.Errorf("%s: AuthenticatorAdapter %v, want %v", tc.name, ok, tc.authenticators)
		}
		if _, ok := a.(adapter.Migrator); ok != tc.migr {
			t.Errorf("%s: Migrator %v, want %v", tc.name, ok, tc.migr)
		}
		_, revoker := a.(adapter.SessionRevoker)
		_, scoped := a.(adapter.ProviderSessionRevoker)
		_, locker := a.(adapter.AccountLocker)
		if !revoker || !scoped || !locker {
			t.Errorf("%s: SessionRevoker %v, ProviderSessionRevoker %v, AccountLocker %v; want all", tc.name, revoker, scoped, locker)
		}
	}
}

// pttls returns the time to live of every key under prefix.
func pttls(t *testing.T, c *redis.Client, prefix string) map[string]time.Duration {
	t.Helper()
	m := map[string]time.Duration{}
	for _, k := range redistest.KeysUnder(t, c, prefix) {
		d, err := c.PTTL(context.Background(), k).Result()
		if err != nil {
			t.Fatal(err)
		}
		m[k] = d
	}
	return m
}

// checkTTLs fails the test unless there are n keys under prefix, each
// with a time to live in (lo, hi].
func checkTTLs(t *testing.T, c *redis.Client, prefix string, n int, lo, hi time.Duration) {
	t.Helper()
	ttls := pttls(t, c, prefix)
	if len(ttls) != n {
		t.Errorf("%d keys, want %d: %v", len(ttls), n, ttls)
	}
	for k, d := range ttls {
		if d <= lo || d > hi {
			t.Errorf("key %s lives %v, want in (%v, %v]", k, d, lo, hi)
		}
	}
}

// checkGone fails the test unless the session token and the verification
// token hash of ada@example.com are not found, and no key is left under
// prefix.
func checkGone(t *testing.T, a adapter.Adapter, c *redis.Client, prefix, token, hash, when string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := a.GetSessionAndUser(ctx, token); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetSessionAndUser %s: %v, want ErrNotFound", when, err)
	}
	if _, err := a.UseVerificationToken(ctx, "ada@example.com", hash); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("UseVerificationToken %s: %v, want ErrNotFound", when, err)
	}
	if keys := redistest.KeysUnder(t, c, prefix); len(keys) != 0 {
		t.Errorf("keys left %s: %v", when, keys)
	}
}

// withAda returns a store with opts over a memory primary, on a Redis
// client of its own under a prefix of its own (opts.Prefix), holding one
// user, ada@example.com; and the client and prefix.
func withAda(t *testing.T, opts redisstore.Options) (a adapter.Adapter, ada adapter.User, c *redis.Client, prefix string) {
	t.Helper()
	c = redistest.NewClient(t)
	opts.Prefix = redistest.Prefix(t, c)
	a = redisstore.New(c, memory.New(), opts)
	ada, err := a.CreateUser(context.Background(), adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return a, ada, c, opts.Prefix
}

// TestTTL: records and their indexes leave Redis at the expiry (with no
// grace), move with UpdateSession, and an expired record stays for the
// grace.
func TestTTL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, u, c, prefix := withAda(t, redisstore.Options{Grace: -1})
	const life = 700 * time.Millisecond
	exp := time.Now().Add(life)
	if _, err := a.CreateSession(ctx, adapter.Session{Token: "t1", UserID: u.ID, Expires: exp, Provider: "corp", SID: "sid-1"}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "h1", Expires: exp}); err != nil {
		t.Fatal(err)
	}
	// The session, its user index, its sid index and the token.
	checkTTLs(t, c, prefix, 4, 0, life)

	// Extended: the session and its indexes live an hour.
	if _, err := a.UpdateSession(ctx, "t1", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ttls := pttls(t, c, prefix)
	long := 0
	for _, d := range ttls {
		if d > 59*time.Minute {
			long++
		}
	}
	if long != 3 {
		t.Errorf("%d keys live an hour after UpdateSession, want 3: %v", long, ttls)
	}
	// Shortened again: back to the expiry.
	if _, err := a.UpdateSession(ctx, "t1", exp); err != nil {
		t.Fatal(err)
	}
	checkTTLs(t, c, prefix, 4, 0, life)

	time.Sleep(time.Until(exp) + 50*time.Millisecond)
	checkGone(t, a, c, prefix, "t1", "h1", "after the expiry")

	// With no grace, a record written expired is gone at once.
	if _, err := a.CreateSession(ctx, adapter.Session{Token: "t2", UserID: u.ID, Expires: time.Now().Add(-time.Hour), Provider: "corp", SID: "sid-2"}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "h2", Expires: time.Unix(-1, 0)}); err != nil {
		t.Fatal(err)
	}
	checkGone(t, a, c, prefix, "t2", "h2", "written expired")

	// With a grace, a record written expired stays for the grace.
	graced := redisstore.New(c, memory.New(), redisstore.Options{Prefix: prefix, Grace: 10 * time.Second})
	if err := graced.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "h2", Expires: time.Now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	checkTTLs(t, c, prefix, 1, 9*time.Second, 10*time.Second)
}

// TestUseVerificationTokenOnce: of 50 concurrent uses of one token exactly
// one gets it.
func TestUseVerificationTokenOnce(t *testing.T) {
	t.Parallel()
	c := redistest.NewClient(t)
	ctx := context.Background()
	a := redisstore.New(c, memory.New(), redisstore.Options{Prefix: redistest.Prefix(t, c)})
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "h", Expires: time.Now().Add(time.Hour)}
	if err := a.CreateVerificationToken(ctx, in); err != nil {
		t.Fatal(err)
	}
	const racers = 50
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  [racers]error
	)
	for i := range racers {
		wg.Go(func() {
			<-start
			_, errs[i] = a.UseVerificationToken(ctx, in.Identifier, in.TokenHash)
		})
	}
	close(start)
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, adapter.ErrNotFound):
			t.Errorf("a loser got %v, want ErrNotFound", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d of %d uses got the token, want 1", wins, racers)
	}
}

// TestRedisDown: when Redis does not answer, every session and token
// method fails with an error that is not ErrNotFound (Gatehouse answers
// 503, not "signed out").
func TestRedisDown(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1, DialTimeout: time.Second})
	defer c.Close()
	ctx := context.Background()
	primary := memory.New()
	u, err := primary.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	a := redisstore.New(c, primary, redisstore.Options{})
	calls := map[string]func() error{
		"CreateSession": func() error {
			_, err := a.CreateSession(ctx, adapter.Session{Token: "t", UserID: u.ID, Expires: time.Now().Add(time.Hour)})
			return err
		},
		"GetSessionAndUser": func() error { _, _, err := a.GetSessionAndUser(ctx, "t"); return err },
		"UpdateSession":     func() error { _, err := a.UpdateSession(ctx, "t", time.Now()); return err },
		"DeleteSession":     func() error { _, err := a.DeleteSession(ctx, "t"); return err },
		"DeleteUserSessions": func() error {
			_, err := a.(adapter.SessionRevoker).DeleteUserSessions(ctx, u.ID)
			return err
		},
		"DeleteProviderSessions": func() error {
			_, err := a.(adapter.ProviderSessionRevoker).DeleteProviderSessions(ctx, "corp", "", "sid")
			return err
		},
		"CreateVerificationToken": func() error {
			return a.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "i", TokenHash: "h", Expires: time.Now()})
		},
		"UseVerificationToken": func() error { _, err := a.UseVerificationToken(ctx, "i", "h"); return err },
		"LockAccount": func() error {
			return a.(adapter.AccountLocker).LockAccount(ctx, "corp", "1", func(context.Context) error { return nil })
		},
	}
	for name, call := range calls {
		if err := call(); err == nil || errors.Is(err, adapter.ErrNotFound) {
			t.Errorf("%s with Redis down: %v, want an error other than ErrNotFound", name, err)
		}
	}
}

// TestLockRenewedAndLost: a lock outlives its lease while its holder
// runs, and the holder's context ends with ErrLockLost when the lock goes.
func TestLockRenewedAndLost(t *testing.T) {
	t.Parallel()
	c := redistest.NewClient(t)
	prefix := redistest.Prefix(t, c)
	// Renewed every third of the lease: long enough that a machine
	// busy with other tests still renews in time (300 ms was not).
	const lease = 1500 * time.Millisecond
	l := redisstore.New(c, memory.New(), redisstore.Options{Prefix: prefix, LockLease: lease}).(adapter.AccountLocker)
	ctx := context.Background()
	err := l.LockAccount(ctx, "corp", "1", func(held context.Context) error {
		time.Sleep(3 * lease) // renewed meanwhile
		wait, cancel := context.WithTimeout(ctx, lease)
		defer cancel()
		if err := l.LockAccount(wait, "corp", "1", func(context.Context) error { return nil }); err == nil {
			t.Error("a second holder took the lock after its first lease")
		}
		// Somebody deletes the lock: the holder learns it has lost it.
		if n := c.Del(ctx, redistest.KeysUnder(t, c, prefix)...).Val(); n != 1 {
			t.Errorf("deleted %d keys, want the lock", n)
		}
		select {
		case <-held.Done():
			if cause := context.Cause(held); !errors.Is(cause, redisstore.ErrLockLost) {
				t.Errorf("cause %v, want ErrLockLost", cause)
			}
		case <-time.After(2 * lease):
			t.Error("the holder's context did not end when the lock went")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if keys := redistest.KeysUnder(t, c, prefix); len(keys) != 0 {
		t.Errorf("keys left after the lock: %v", keys)
	}
}
