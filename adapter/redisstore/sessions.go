package redisstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

// luaLib is the start of every script: the server's clock, record
// deadlines and the session indexes.
//
// A session is a hash with the fields u (user id), e (expiry, Unix
// microseconds), p (provider), s (provider session id), ui (the key of its
// user's index), si (the key of its sid index, or ""), c and m (created
// and last updated, Unix microseconds, "" when unknown) and a (the coarse
// user agent). Sessions written before c, m and a existed lack them. An index is a
// sorted set of session keys scored by the time (Unix milliseconds) their
// record leaves Redis; members whose time has passed are dropped when the
// index is written, and the index itself leaves with its last member.
const luaLib = `
-- now_ms is the server's clock in milliseconds, read once per run so
-- that every comparison of a run agrees.
local clock
local function now_ms()
	if not clock then
		local t = redis.call('TIME')
		clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
	end
	return clock
end
-- ms formats a number of milliseconds as an integer, without an exponent.
local function ms(n)
	return string.format('%.0f', n)
end
-- deadline is when a record that expires at exp (ms) leaves Redis: grace
-- after exp, or after now when exp has passed; at exp with no grace.
local function deadline(exp, grace)
	exp, grace = tonumber(exp), tonumber(grace)
	if grace == 0 then
		return exp
	end
	return math.max(exp, now_ms()) + grace
end
local function index(key, member, d)
	redis.call('ZADD', key, ms(d), member)
	redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ms(now_ms()))
	local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
	if last[2] then
		redis.call('PEXPIREAT', key, last[2])
	end
end
-- now_us is the server's clock in microseconds.
local function now_us()
	local t = redis.call('TIME')
	return t[1] .. string.format('%06d', tonumber(t[2]))
end
-- drop deletes the session key and its index entries, and returns its
-- fields u, e, p, s, c, m, a, or nil when there is no such session.
local function drop(key)
	local f = redis.call('HMGET', key, 'u', 'e', 'p', 's', 'ui', 'si', 'c', 'm', 'a')
	if not f[1] then
		return nil
	end
	redis.call('DEL', key)
	redis.call('ZREM', f[5], key)
	if f[6] ~= '' then
		redis.call('ZREM', f[6], key)
	end
	return {f[1], f[2], f[3], f[4], f[7], f[8], f[9]}
end
`

// createSession stores a session unless its key exists (0).
// KEYS: session, user index, sid index (optional).
// ARGV: expiry (ms), grace (ms), user id, expiry (µs), provider, sid,
// created (µs or ""), updated (µs or ""), user agent.
var createSession = redis.NewScript(luaLib + `
if redis.call('EXISTS', KEYS[1]) == 1 then
	return 0
end
local d = deadline(ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], 'u', ARGV[3], 'e', ARGV[4], 'p', ARGV[5], 's', ARGV[6], 'ui', KEYS[2], 'si', KEYS[3] or '',
	'c', ARGV[7], 'm', ARGV[8], 'a', ARGV[9])
redis.call('PEXPIREAT', KEYS[1], ms(d))
index(KEYS[2], KEYS[1], d)
if KEYS[3] then
	index(KEYS[3], KEYS[1], d)
end
return 1
`)

// updateSession sets a session's expiry, and its last update (m) to the
// server's clock, and returns its fields u, e, p, s, c, m, a, or nil when
// there is no such session.
// KEYS: session. ARGV: expiry (ms), grace (ms), expiry (µs).
var updateSession = redis.NewScript(luaLib + `
local f = redis.call('HMGET', KEYS[1], 'u', 'p', 's', 'ui', 'si', 'c', 'a')
if not f[1] then
	return false
end
local d = deadline(ARGV[1], ARGV[2])
local m = now_us()
redis.call('HSET', KEYS[1], 'e', ARGV[3], 'm', m)
redis.call('PEXPIREAT', KEYS[1], ms(d))
index(f[4], KEYS[1], d)
if f[5] ~= '' then
	index(f[5], KEYS[1], d)
end
return {f[1], ARGV[3], f[2], f[3], f[6], m, f[7]}
`)

// deleteSession deletes a session and returns its fields u, e, p, s, c,
// m, a, or nil when there is no such session. KEYS: session.
var deleteSession = redis.NewScript(luaLib + `
return drop(KEYS[1]) or false
`)

// revokeSessions deletes the sessions of an index that match, and returns
// how many it deleted. A session matches when its provider is ARGV[2] (if
// ARGV[1] is "1"), its user ARGV[3] (if not "") and its sid ARGV[4] (if
// not ""). KEYS: the index.
var revokeSessions = redis.NewScript(luaLib + `
local n = 0
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
	local f = redis.call('HMGET', key, 'u', 'p', 's')
	if not f[1] then
		redis.call('ZREM', KEYS[1], key)
	elseif (ARGV[1] ~= '1' or f[2] == ARGV[2]) and (ARGV[3] == '' or f[1] == ARGV[3]) and (ARGV[4] == '' or f[3] == ARGV[4]) then
		drop(key)
		n = n + 1
	end
end
return n
`)

// CreateSession stores the session in Redis after checking that its user
// exists in the primary; ErrConflict when the token exists. (A session
// created while its user is being deleted may outlive the user; it is
// then not found, since GetSessionAndUser reads the user too.)
func (s *store) CreateSession(ctx context.Context, in adapter.Session) (adapter.Session, error) {
	if _, err := s.Adapter.GetUser(ctx, in.UserID); err != nil {
		return adapter.Session{}, err
	}
	in.Expires = stored.Time(in.Expires)
	in.CreatedAt = stored.Time(in.CreatedAt)
	in.UpdatedAt = stored.Time(cmp.Or(in.UpdatedAt, in.CreatedAt))
	key := s.sessionKey(in.Token)
	keys := []string{key, s.userIndex(in.UserID)}
	if in.SID != "" {
		keys = append(keys, s.sidIndex(in.Provider, in.SID))
	}
	created, err := createSession.Run(ctx, s.rdb, keys,
		in.Expires.UnixMilli(), s.graceMS, in.UserID, in.Expires.UnixMicro(), in.Provider, in.SID,
		micros(in.CreatedAt), micros(in.UpdatedAt), in.UserAgent).Int()
	if err != nil {
		return adapter.Session{}, fail("creating a session", err)
	}
	if created == 0 {
		return adapter.Session{}, fmt.Errorf("redisstore: session: %w", adapter.ErrConflict)
	}
	return in, nil
}

// GetSessionAndUser reads the session from Redis and its user from the
// primary. A session whose user is gone is not found.
func (s *store) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	f, err := s.rdb.HMGet(ctx, s.sessionKey(token), sessionFields...).Result()
	if err != nil {
		return adapter.Session{}, adapter.User{}, fail("reading a session", err)
	}
	sess, err := decodeSession(token, f)
	if err != nil {
		return adapter.Session{}, adapter.User{}, err
	}
	u, err := s.Adapter.GetUser(ctx, sess.UserID)
	if err != nil {
		return adapter.Session{}, adapter.User{}, err
	}
	return sess, u, nil
}

// UpdateSession sets the session's expiry, and its time in Redis with it,
// and its UpdatedAt to the Redis server's clock, as the times the
// scripts compare.
func (s *store) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	expires = stored.Time(expires)
	return s.runSession(ctx, updateSession, "updating a session", token, expires.UnixMilli(), s.graceMS, expires.UnixMicro())
}

// DeleteSession removes the session and returns it as it was.
func (s *store) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	return s.runSession(ctx, deleteSession, "deleting a session", token)
}

// runSession runs a script on the session with the token that answers
// its fields, and returns the session.
func (s *store) runSession(ctx context.Context, script *redis.Script, what, token string, args ...any) (adapter.Session, error) {
	f, err := script.Run(ctx, s.rdb, []string{s.sessionKey(token)}, args...).Slice()
	if err != nil && !errors.Is(err, redis.Nil) {
		return adapter.Session{}, fail(what, err)
	}
	return decodeSession(token, f)
}

// DeleteUserSessions removes every session of the user from Redis
// (adapter.SessionRevoker).
func (s *store) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	return s.revoke(ctx, s.userIndex(userID), false, "", userID, "")
}

// DeleteProviderSessions removes the sessions signed in with provider
// whose provider session is sid (when not "") and whose user is userID
// (when not ""), through the sid or the user index
// (adapter.ProviderSessionRevoker).
func (s *store) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	switch {
	case sid != "":
		return s.revoke(ctx, s.sidIndex(provider, sid), true, provider, userID, sid)
	case userID != "":
		return s.revoke(ctx, s.userIndex(userID), true, provider, userID, "")
	}
	return 0, nil
}

// revoke runs revokeSessions on an index.
func (s *store) revoke(ctx context.Context, index string, byProvider bool, provider, userID, sid string) (int, error) {
	flag := "0"
	if byProvider {
		flag = "1"
	}
	n, err := revokeSessions.Run(ctx, s.rdb, []string{index}, flag, provider, userID, sid).Int()
	if err != nil {
		return 0, fail("revoking sessions", err)
	}
	return n, nil
}

// sessionFields are the fields of a session hash that decodeSession
// reads, in its order.
var sessionFields = []string{"u", "e", "p", "s", "c", "m", "a"}

// micros is the stored form of a time: Unix microseconds, or "" for the
// zero time (unknown).
func micros(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.UnixMicro(), 10)
}

// parseMicros reads what micros wrote: the zero time for "".
func parseMicros(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	us, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMicro(us).UTC(), nil
}

// decodeSession makes a session of the sessionFields as HMGET or a script
// answers them: ErrNotFound when u, e, p or s is missing. The fields c, m
// and a may be missing (a session written before they were), and read as
// the zero time and "".
func decodeSession(token string, f []any) (adapter.Session, error) {
	var v [7]string
	for i := range v {
		var str string
		ok := i < len(f)
		if ok {
			str, ok = f[i].(string)
		}
		if !ok && i < 4 {
			return adapter.Session{}, fmt.Errorf("redisstore: session: %w", adapter.ErrNotFound)
		}
		v[i] = str
	}
	us, err := strconv.ParseInt(v[1], 10, 64)
	if err != nil {
		return adapter.Session{}, fmt.Errorf("redisstore: session with a malformed expiry: %w", err)
	}
	exp := time.UnixMicro(us).UTC()
	created, err := parseMicros(v[4])
	if err != nil {
		return adapter.Session{}, fmt.Errorf("redisstore: session with a malformed creation time: %w", err)
	}
	updated, err := parseMicros(v[5])
	if err != nil {
		return adapter.Session{}, fmt.Errorf("redisstore: session with a malformed update time: %w", err)
	}
	return adapter.Session{
		Token:     token,
		UserID:    v[0],
		Expires:   exp,
		Provider:  v[2],
		SID:       v[3],
		CreatedAt: created,
		UpdatedAt: updated,
		UserAgent: v[6],
	}, nil
}

// fail wraps a Redis error: never ErrNotFound, so that Gatehouse answers
// 503 instead of treating the visitor as signed out.
func fail(what string, err error) error {
	return fmt.Errorf("redisstore: %s: %w", what, err)
}

// ListSessions returns the user's sessions, latest expiry first, from
// the user's index (adapter.SessionLister). An index entry whose session
// is gone, or belongs to another user (a stale entry), is skipped.
func (s *store) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	keys, err := s.rdb.ZRange(ctx, s.userIndex(userID), 0, -1).Result()
	if err != nil {
		return nil, fail("listing sessions", err)
	}
	list := []adapter.Session{}
	prefix := s.sessionKey("")
	for _, key := range keys {
		token, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		f, err := s.rdb.HMGet(ctx, key, sessionFields...).Result()
		if err != nil {
			return nil, fail("listing sessions", err)
		}
		sess, err := decodeSession(token, f)
		if errors.Is(err, adapter.ErrNotFound) || err == nil && sess.UserID != userID {
			continue
		}
		if err != nil {
			return nil, err
		}
		list = append(list, sess)
	}
	slices.SortFunc(list, func(a, b adapter.Session) int {
		return cmp.Or(b.Expires.Compare(a.Expires), strings.Compare(a.Token, b.Token))
	})
	return list, nil
}

// LiveSessions reports true (adapter.LiveSessions): a session read is one
// Redis round trip, so the handler reads it on every request instead of
// trusting a cookie-cached copy, and an ended session is refused by every
// instance at once.
func (s *store) LiveSessions() bool { return true }
