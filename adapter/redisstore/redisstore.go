// Package redisstore keeps database sessions and e-mail verification
// tokens in Redis, and everything else (users, accounts, authenticators)
// in another adapter, the primary: Redis as secondary storage, as Better
// Auth's secondaryStorage. Sessions and tokens expire in Redis on their
// own, and a session revoked through one instance of the application is
// refused by every other at its next request, since all of them read it
// from the same Redis.
//
//	db, err := sqlite.Open(ctx, "gatehouse.db") // or postgres.New(pool)
//	if err != nil { ... }
//	if err := db.Migrate(ctx); err != nil { ... }
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	h, err := gatehouse.New(gatehouse.Config{
//		Adapter: redisstore.New(rdb, db, redisstore.Options{}),
//		Session: gatehouse.SessionConfig{Strategy: gatehouse.StrategyDatabase},
//		...
//	})
//
// # What goes where
//
// A session is a Redis hash under {Prefix}session:{token}. Gatehouse
// passes the hash of the cookie's value as the token, so Redis never holds
// a usable session cookie. Each user has a sorted set of its session keys
// ({Prefix}user:{id}:sessions), and each provider session (the ID token's
// sid) one more ({Prefix}sid:...), so that sign-out everywhere and
// back-channel logout (adapter.SessionRevoker, adapter.ProviderSessionRevoker)
// find the sessions to end without scanning. A verification token is a
// string under {Prefix}verification:...; using it is one GETDEL, so of two
// concurrent uses exactly one gets it.
//
// Every record lives until its expiry plus Options.Grace: the adapter
// contract has expired sessions and tokens returned as they are, so that
// Gatehouse can tell "expired" from "unknown"; after the grace Redis has
// dropped them. The indexes expire with their last member. Times are
// compared on the Redis server's clock (Lua scripts call TIME), never on
// the instances' clocks.
//
// The writes that touch a record and its indexes are Lua scripts, atomic
// in Redis. With Redis Cluster every key must then be in one slot: give a
// Prefix with a hash tag, such as "{gatehouse}:".
//
// # What the wrapper implements
//
// The value New returns implements adapter.SessionRevoker,
// adapter.ProviderSessionRevoker and adapter.AccountLocker itself, on
// Redis, whatever the primary does: the account lock is a Redis lock
// (SET NX PX with an owner token, renewed while held, released by a
// compare-and-delete script), so it holds across every instance that
// shares the Redis. It implements adapter.AuthenticatorAdapter and
// adapter.Migrator when the primary does, by handing the calls to it.
//
// It always has the methods of adapter.PasswordStore and twofactor.Store,
// and hands them to the primary, where the user's password hash and
// two-factor secret are kept (and removed with the user); the primary
// makes AdvanceTOTPStep and ConsumeBackupCode atomic. Over a primary
// without them they return ErrUnsupported: ask Supports first, as in
// Supports[adapter.PasswordStore](a). A session's CreatedAt, UpdatedAt
// and UserAgent are kept in Redis with the session.
//
// Sessions the primary held before it was wrapped are not read: switching
// to Redis signs everybody out once.
//
// # Errors
//
// A session, token or lock that is not there is adapter.ErrNotFound. A
// Redis failure is returned as an error that is not ErrNotFound, so that
// Gatehouse answers 503 rather than treating the visitor as signed out.
// Neither errors nor anything else in this package contain tokens or key
// names.
package redisstore

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// DefaultPrefix is the key prefix when Options.Prefix is empty.
const DefaultPrefix = "gatehouse:"

// DefaultGrace is Options.Grace when it is zero.
const DefaultGrace = time.Minute

// DefaultLockLease is Options.LockLease when it is zero.
const DefaultLockLease = 30 * time.Second

// Options configure New. The zero value is usable.
type Options struct {
	// Prefix starts every key; DefaultPrefix when empty. Give each
	// application sharing a Redis its own. With Redis Cluster it must
	// hold a hash tag, such as "{gatehouse}:".
	Prefix string
	// Grace is how long a session or verification token stays in Redis
	// after it expires (or after it is written, when it is written
	// already expired), so that reads return it as expired rather than
	// not found, as the adapter contract asks. DefaultGrace when zero; a
	// negative Grace is none: records leave Redis at their expiry.
	Grace time.Duration
	// LockLease is how long an account lock outlives a holder that
	// stopped renewing it (a crashed process). DefaultLockLease when zero.
	LockLease time.Duration
}

// store is the adapter New returns when the primary has no optional
// method sets that the wrapper hands on.
type store struct {
	adapter.Adapter // the primary: everything not overridden below
	rdb             redis.UniversalClient
	prefix          string
	graceMS         string // Grace in milliseconds, as the scripts take it
	lease           time.Duration
}

// The adapters New returns when the primary implements
// adapter.AuthenticatorAdapter, adapter.Migrator, or both: the store with
// those method sets handed to the primary.
type (
	withAuthenticators struct {
		*store
		adapter.AuthenticatorAdapter
	}
	withMigrator struct {
		*store
		adapter.Migrator
	}
	withBoth struct {
		*store
		adapter.AuthenticatorAdapter
		adapter.Migrator
	}
)

var (
	_ adapter.SessionRevoker         = (*store)(nil)
	_ adapter.ProviderSessionRevoker = (*store)(nil)
	_ adapter.AccountLocker          = (*store)(nil)
	_ adapter.AuthenticatorAdapter   = withBoth{}
	_ adapter.Migrator               = withBoth{}
)

// New returns an adapter that keeps sessions and verification tokens in
// Redis through client, under opts.Prefix, and hands every other call to
// primary. The result implements adapter.SessionRevoker,
// adapter.ProviderSessionRevoker and adapter.AccountLocker, and
// adapter.AuthenticatorAdapter and adapter.Migrator when primary does. It
// has the methods of adapter.PasswordStore and twofactor.Store, which
// return ErrUnsupported when primary does not implement them (see
// Supports).
// New does not contact Redis.
func New(client redis.UniversalClient, primary adapter.Adapter, opts Options) adapter.Adapter {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	switch {
	case opts.Grace == 0:
		opts.Grace = DefaultGrace
	case opts.Grace < 0:
		opts.Grace = 0
	}
	if opts.LockLease <= 0 {
		opts.LockLease = DefaultLockLease
	}
	s := &store{
		Adapter: primary,
		rdb:     client,
		prefix:  opts.Prefix,
		graceMS: strconv.FormatInt(opts.Grace.Milliseconds(), 10),
		lease:   opts.LockLease,
	}
	auth, hasAuth := primary.(adapter.AuthenticatorAdapter)
	mig, hasMig := primary.(adapter.Migrator)
	switch {
	case hasAuth && hasMig:
		return withBoth{s, auth, mig}
	case hasAuth:
		return withAuthenticators{s, auth}
	case hasMig:
		return withMigrator{s, mig}
	}
	return s
}

// DeleteUser removes the user from the primary, then the user's sessions
// from Redis.
func (s *store) DeleteUser(ctx context.Context, id string) error {
	if err := s.Adapter.DeleteUser(ctx, id); err != nil {
		return err
	}
	_, err := s.DeleteUserSessions(ctx, id)
	return err
}

// field returns the length of v, a colon and v: a key part that cannot be
// mistaken for another however v ends, when more parts follow.
func field(v string) string {
	return strconv.Itoa(len(v)) + ":" + v
}

// sessionKey is the key of the session with the token.
func (s *store) sessionKey(token string) string {
	return s.prefix + "session:" + token
}

// userIndex is the key of the sorted set of the user's session keys.
func (s *store) userIndex(userID string) string {
	return s.prefix + "user:" + field(userID) + ":sessions"
}

// sidIndex is the key of the sorted set of the session keys signed in
// with the provider session sid of provider.
func (s *store) sidIndex(provider, sid string) string {
	return s.prefix + "sid:" + field(provider) + ":" + sid
}

// tokenKey is the key of a verification token.
func (s *store) tokenKey(identifier, tokenHash string) string {
	return s.prefix + "verification:" + field(identifier) + ":" + tokenHash
}

// lockKey is the key of an account's lock.
func (s *store) lockKey(provider, providerAccountID string) string {
	return s.prefix + "lock:" + field(provider) + ":" + providerAccountID
}
