// Package redisreplay is a bearer.ReplayLog in Redis: the DPoP proofs
// (RFC 9449) every instance of a service has accepted, so that a proof
// accepted by one instance is refused by all the others (RFC 9449 §11.1).
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	v, err := bearer.New(bearer.Config{
//		Issuer:   "https://auth.example.com",
//		Audience: []string{"https://api.example.com"},
//		DPoP:     bearer.DPoP{Replay: redisreplay.New(rdb, "")},
//	})
//
// It is a package of its own so that services that do not use Redis do
// not link a Redis client. It uses github.com/redis/go-redis/v9, as
// Gatehouse's Redis adapter does.
package redisreplay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/bearer"
)

// DefaultPrefix begins the keys when New is given no prefix.
const DefaultPrefix = "gatehouse:dpop:"

// Log records proofs in Redis, one key per proof, which Redis deletes
// when the proof could no longer be accepted anyway. It is safe for
// concurrent use.
type Log struct {
	client redis.UniversalClient
	prefix string
}

var _ bearer.ReplayLog = (*Log)(nil)

// New returns a Log over client whose keys begin with prefix
// (DefaultPrefix when empty). Give every instance of a service the same
// Redis and prefix.
func New(client redis.UniversalClient, prefix string) *Log {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return &Log{client: client, prefix: prefix}
}

// Use implements bearer.ReplayLog: it records id until expiry, and
// reports false when id is recorded already. The check and the record
// are one command, SET key 1 NX PX ttl: of many instances that see one
// proof at once, Redis lets exactly one SET happen (RFC 9449 §11.1).
//
// The expiry is sent as a time to live from this process's clock (PX),
// not as an absolute time (PXAT) that Redis would read with its own
// clock: a Redis clock ahead of the service's would otherwise drop a
// record while its proof can still be replayed. It is rounded up to the
// millisecond, and an expiry already past is kept for one millisecond:
// a record is never dropped before its time.
func (l *Log) Use(ctx context.Context, id string, expiry time.Time) (bool, error) {
	ttl := max(time.Until(expiry), 0)
	ms := (ttl + time.Millisecond - 1) / time.Millisecond
	if ms < 1 {
		ms = 1
	}
	err := l.client.Do(ctx, "SET", l.prefix+id, "1", "NX", "PX", int64(ms)).Err()
	switch {
	case errors.Is(err, redis.Nil):
		return false, nil // NX: the key exists, the proof was used
	case err != nil:
		return false, fmt.Errorf("redisreplay: %w", err)
	}
	return true, nil
}
