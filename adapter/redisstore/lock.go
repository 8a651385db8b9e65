package redisstore

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// renewLock extends the lock's lease when the caller still holds it (1).
// KEYS: the lock. ARGV: owner, lease (ms).
var renewLock = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// releaseLock deletes the lock when the caller still holds it.
// KEYS: the lock. ARGV: owner.
var releaseLock = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
`)

// ErrLockLost is the cause (context.Cause) of the end of the context
// LockAccount gives fn when the lock could not be renewed: another holder
// may have it now.
var ErrLockLost = errors.New("redisstore: the account lock was lost")

// The waits between two attempts to take a held lock: the first, and the
// longest.
const (
	firstRetry = 5 * time.Millisecond
	lastRetry  = 100 * time.Millisecond
)

// releaseTimeout bounds the release of a lock, which runs even when the
// caller's context has ended.
const releaseTimeout = 5 * time.Second

// LockAccount runs fn holding the account's lock in Redis
// (adapter.AccountLocker), shared by every instance on the same Redis and
// Prefix. The lock is a key set with SET NX PX to a random owner token;
// while fn runs it is renewed every third of Options.LockLease, and at the
// end it is deleted only if it still holds the owner token. When renewal
// fails for a whole lease, fn's context ends with ErrLockLost as its
// cause. A lock whose release fails lapses after its lease.
func (s *store) LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error {
	key := s.lockKey(provider, providerAccountID)
	owner := rand.Text()
	if err := s.acquire(ctx, key, owner); err != nil {
		return err
	}
	held, lost := context.WithCancelCause(ctx)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		s.renew(held, lost, key, owner, stop)
	}()
	defer func() {
		close(stop)
		<-stopped
		lost(nil)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		_ = releaseLock.Run(rctx, s.rdb, []string{key}, owner).Err()
	}()
	return fn(held)
}

// acquire takes the lock key for owner, waiting while another holds it
// until ctx ends.
func (s *store) acquire(ctx context.Context, key, owner string) error {
	wait := firstRetry
	for {
		ok, err := s.rdb.SetNX(ctx, key, owner, s.lease).Result()
		if err != nil {
			return fail("taking an account lock", err)
		}
		if ok {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, lastRetry)
	}
}

// renew extends the lease of the lock key every third of it until stop is
// closed or ctx ends, and calls lost when the lock is someone else's or
// could not be renewed for a whole lease.
func (s *store) renew(ctx context.Context, lost context.CancelCauseFunc, key, owner string, stop <-chan struct{}) {
	tick := time.NewTicker(s.lease / 3)
	defer tick.Stop()
	renewed := time.Now()
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		n, err := renewLock.Run(ctx, s.rdb, []string{key}, owner, s.lease.Milliseconds()).Int()
		switch {
		case err == nil && n == 1:
			renewed = time.Now()
		case err == nil || time.Since(renewed) >= s.lease:
			lost(ErrLockLost)
			return
		}
	}
}
