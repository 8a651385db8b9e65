// Package redislimit is a limit.Limiter kept in Redis, so that the attempt
// limits of the credentials and e-mail providers hold across every process
// that shares the Redis server, where limit.Memory counts per process.
//
// It has the semantics of limit.Memory: at most Max attempts per key
// within Window, counted from the key's first attempt; once Max are
// counted Reserve returns the rest of the window; Release gives one back;
// Reset clears the key.
//
// Each key is one Redis string holding a counter, with a time to live of
// Window set by the first attempt. Reserve runs INCR, PEXPIRE and, over
// Max, DECR in one Lua script, so that the check and the count are one
// atomic step across processes: of any number of concurrent attempts, at
// most Max go ahead. Nothing else is stored, and Redis drops the key when
// its window ends.
//
// The keys Gatehouse passes hold client addresses and identifiers such as
// e-mail addresses. They are not stored as they are: the Redis key is
// Prefix followed by the hex SHA-256 of the key, so that addresses do not
// sit in clear text in Redis, its dumps or MONITOR output. A hash is not
// secrecy: whoever can read Redis and holds a list of candidate addresses
// can still confirm one by hashing it.
//
// A Redis failure (server down, timeout, cancelled context, a read-only
// replica) is returned as an error, and Gatehouse fails closed: the
// attempt is refused when Reserve returns an error. An error from Release
// or Reset is logged and the request goes on.
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

// reserveScript counts an attempt and refuses it, uncounted, once the
// key has ARGV[1] attempts: the check and the count are one step on the
// server, so concurrent attempts from any number of processes get at most
// ARGV[1] through. The window (ARGV[2] ms) starts with the first attempt.
// It returns 0 for "go ahead", else the milliseconds left in the window,
// at least 1: in a window's last millisecond PTTL answers 0 (a key
// expires only once the clock is past its expiry time), which must not
// read as "go ahead".
const reserveLua = `
local n = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if n == 1 or left < 0 then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	left = tonumber(ARGV[2])
end
if n > tonumber(ARGV[1]) then
	redis.call('DECR', KEYS[1])
	return math.max(left, 1)
end
return 0
`

var reserveScript = redis.NewScript(reserveLua)

// releaseScript gives one attempt back, never below zero, keeping the
// window.
var releaseScript = redis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if n > 0 then
	redis.call('DECR', KEYS[1])
end
return 0
`)

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

// Reserve counts an attempt for key in Redis, atomically, and returns 0
// when it may go ahead, or the time left in key's window.
func (l *Limiter) Reserve(ctx context.Context, key string) (time.Duration, error) {
	if err := l.check(); err != nil {
		return 0, err
	}
	ms, err := reserveScript.Run(ctx, l.Client, []string{l.redisKey(key)}, l.Max, l.Window.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("redislimit: counting an attempt: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// Release gives back one attempt of key.
func (l *Limiter) Release(ctx context.Context, key string) error {
	if err := l.check(); err != nil {
		return err
	}
	if err := releaseScript.Run(ctx, l.Client, []string{l.redisKey(key)}).Err(); err != nil {
		return fmt.Errorf("redislimit: releasing an attempt: %w", err)
	}
	return nil
}

// Reset deletes key's count.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if err := l.check(); err != nil {
		return err
	}
	if err := l.Client.Del(ctx, l.redisKey(key)).Err(); err != nil {
		return fmt.Errorf("redislimit: resetting a count: %w", err)
	}
	return nil
}

// Backend is a limit.Backend whose limiters all live in one Redis, each
// under its own prefix: Prefix (DefaultPrefix when empty) followed by the
// limit's name and a colon. Give every instance of an application the
// same Backend (gatehouse.Config.Limits) and every count is shared.
type Backend struct {
	Client redis.UniversalClient
	Prefix string
}

// Limiter returns a Limiter in b's Redis for the limit called name.
func (b Backend) Limiter(name string, max int, window time.Duration) limit.Limiter {
	p := b.Prefix
	if p == "" {
		p = DefaultPrefix
	}
	return &Limiter{Client: b.Client, Max: max, Window: window, Prefix: p + name + ":"}
}
