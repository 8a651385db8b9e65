// Package redislimit is a limit.Limiter kept in Redis, so that the attempt
// limits of the credentials and e-mail providers hold across every process
// that shares the Redis server, where limit.Memory counts per process.
//
// It has the semantics of limit.Memory: at most Max failed attempts per key
// within Window, counted from the key's first failure; after the Max-th
// failure Wait returns the rest of the window; Reset clears the key.
//
// Each key is one Redis string holding a counter, with a time to live of
// Window set by the first failure. Fail runs INCR and PEXPIRE in one Lua
// script, so it is atomic across processes; Wait reads the counter and its
// PTTL in another. Nothing else is stored, and Redis drops the key when
// its window ends.
//
// The keys Gatehouse passes hold client addresses and identifiers such as
// e-mail addresses. They are not stored as they are: the Redis key is
// Prefix followed by the hex SHA-256 of the key, so that addresses do not
// sit in clear text in Redis, its dumps or MONITOR output. A hash is not
// secrecy: whoever can read Redis and holds a list of candidate addresses
// can still confirm one by hashing it.
//
// A Redis failure (server down, timeout, cancelled context) is returned as
// an error. Gatehouse fails closed on Wait: the credentials and e-mail
// handlers refuse the sign-in attempt with an error page when Wait returns
// an error. An error from Fail or Reset is logged and the request goes on
// (a failed attempt is still refused; a link is still sent).
package redislimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/limit"
)

// DefaultPrefix is the prefix of the Redis keys when Limiter.Prefix is
// empty.
const DefaultPrefix = "gatehouse:limit:"

// Limiter is a limit.Limiter in Redis. Give each limit its own Prefix when
// several limits share a Redis server and could see the same key (the
// credentials provider's PerIP and PerIdentifier keys differ already:
// "ip:..." and "id:...").
//
// Its methods are safe for concurrent use, in one process or many.
type Limiter struct {
	// Client is the Redis connection: a *redis.Client, *redis.ClusterClient
	// or *redis.Ring. Each key is one Redis key, so Cluster works.
	Client redis.UniversalClient
	// Max is the number of failed attempts allowed per key within Window;
	// it must be at least 1.
	Max int
	// Window is how long a key's failures count, from its first failure.
	// Redis keeps it to the millisecond; it must be at least 1 ms.
	Window time.Duration
	// Prefix starts every Redis key; DefaultPrefix when empty.
	Prefix string
}

// New returns a Limiter allowing max failed attempts per key within window,
// with keys under DefaultPrefix.
func New(client redis.UniversalClient, max int, window time.Duration) *Limiter {
	return &Limiter{Client: client, Max: max, Window: window}
}

var _ limit.Limiter = (*Limiter)(nil)

// errConfig is returned for a Limiter that cannot count.
var errConfig = errors.New("redislimit: Client must be set, Max at least 1 and Window at least 1ms")

// failScript counts a failure: the first one of a window sets the window's
// end. A counter found without an end (written by something else) gets
// one, so that no key can stay locked for ever.
var failScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then
	redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
`)

// waitScript returns the milliseconds left in the key's window once it has
// at least ARGV[1] failures, and 0 otherwise.
var waitScript = redis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if n < tonumber(ARGV[1]) then
	return 0
end
local left = redis.call('PTTL', KEYS[1])
if left == -1 then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	left = tonumber(ARGV[2])
end
if left < 0 then
	return 0
end
return left
`)

// redisKey is the Redis key of key: the prefix and key's SHA-256 in hex.
func (l *Limiter) redisKey(key string) string {
	p := l.Prefix
	if p == "" {
		p = DefaultPrefix
	}
	sum := sha256.Sum256([]byte(key))
	return p + hex.EncodeToString(sum[:])
}

func (l *Limiter) check() error {
	if l.Client == nil || l.Max < 1 || l.Window < time.Millisecond {
		return errConfig
	}
	return nil
}

// Wait returns the time left in key's window once it has Max failures, and
// 0 before that.
func (l *Limiter) Wait(ctx context.Context, key string) (time.Duration, error) {
	if err := l.check(); err != nil {
		return 0, err
	}
	ms, err := waitScript.Run(ctx, l.Client, []string{l.redisKey(key)}, l.Max, l.Window.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("redislimit: reading a count: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// Fail counts a failure for key, starting a new window when key has none.
func (l *Limiter) Fail(ctx context.Context, key string) error {
	if err := l.check(); err != nil {
		return err
	}
	if err := failScript.Run(ctx, l.Client, []string{l.redisKey(key)}, l.Window.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redislimit: counting a failure: %w", err)
	}
	return nil
}

// Reset forgets key.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if err := l.check(); err != nil {
		return err
	}
	if err := l.Client.Del(ctx, l.redisKey(key)).Err(); err != nil {
		return fmt.Errorf("redislimit: resetting a count: %w", err)
	}
	return nil
}
