package adapter

import "context"

// AccountLocker is implemented by adapters that can lock one account for
// every process that shares the store. Token refresh holds the lock: a
// provider that rotates refresh tokens and detects their reuse (RFC 9700
// §4.14.2) revokes the whole grant when two processes present the same
// refresh token, so of several concurrent refreshes of one account only
// one may reach the provider; the others, once they hold the lock, read
// the tokens it saved. Without it, refreshes are single-flight per
// process only.
type AccountLocker interface {
	// LockAccount runs fn while holding the lock of the account
	// (provider, providerAccountID) and returns fn's error. It waits for
	// the lock until ctx ends. fn may use the adapter's other methods.
	LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error
}
