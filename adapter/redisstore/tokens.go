package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

// createToken stores a verification token unless its key exists (0).
// KEYS: the token. ARGV: expiry (ms), grace (ms), expiry (µs).
var createToken = redis.NewScript(luaLib + `
if not redis.call('SET', KEYS[1], ARGV[3], 'NX') then
	return 0
end
redis.call('PEXPIREAT', KEYS[1], ms(deadline(ARGV[1], ARGV[2])))
return 1
`)

// CreateVerificationToken stores t in Redis until it expires (and Grace
// after); ErrConflict when the same identifier and hash are stored.
func (s *store) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	exp := stored.Time(t.Expires)
	created, err := createToken.Run(ctx, s.rdb, []string{s.tokenKey(t.Identifier, t.TokenHash)},
		exp.UnixMilli(), s.graceMS, exp.UnixMicro()).Int()
	if err != nil {
		return fail("creating a verification token", err)
	}
	if created == 0 {
		return fmt.Errorf("redisstore: verification token: %w", adapter.ErrConflict)
	}
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, with one GETDEL: of concurrent calls exactly one
// gets it.
func (s *store) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	v, err := s.rdb.GetDel(ctx, s.tokenKey(identifier, tokenHash)).Result()
	if errors.Is(err, redis.Nil) {
		return adapter.VerificationToken{}, fmt.Errorf("redisstore: verification token: %w", adapter.ErrNotFound)
	}
	if err != nil {
		return adapter.VerificationToken{}, fail("using a verification token", err)
	}
	us, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return adapter.VerificationToken{}, fmt.Errorf("redisstore: verification token with a malformed expiry: %w", err)
	}
	return adapter.VerificationToken{Identifier: identifier, TokenHash: tokenHash, Expires: time.UnixMicro(us).UTC()}, nil
}
