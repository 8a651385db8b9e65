package adapter

import (
	"context"
	"time"
)

// SessionRevoker is implemented by adapters that can end every database
// session of a user at once. Gatehouse uses it for OpenID Connect
// back-channel logout (a provider tells the application that a user
// signed out there): with the database strategy, the user's sessions are
// deleted. Without it, back-channel logout answers 501.
type SessionRevoker interface {
	// DeleteUserSessions removes every session of the user userID and
	// returns how many there were. A user with no sessions (or no such
	// user) gives 0 and no error.
	DeleteUserSessions(ctx context.Context, userID string) (int, error)
}

// ProviderSessionRevoker is implemented by adapters that record, with each
// session, the provider it was signed in with and that provider's session
// id (Session.Provider, Session.SID), so that back-channel logout ends
// exactly the sessions a logout token names (OpenID Connect Back-Channel
// Logout 1.0 §2.4): a token with a sid ends the sessions of that provider
// session only; one with only a sub ends that user's sessions from that
// provider.
type ProviderSessionRevoker interface {
	// DeleteProviderSessions removes the sessions signed in with provider
	// whose SID is sid (when sid is not "") and whose user is userID (when
	// userID is not ""), and returns how many there were. At least one of
	// sid and userID is not "". A provider of "" names the sessions that
	// recorded none (created before the adapter recorded providers).
	DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error)
}

// Sweeper is implemented by adapters that can delete what has expired:
// sessions past their expiry and verification tokens (e-mail links) past
// theirs. Nothing else deletes them; Handler.Sweep calls it.
type Sweeper interface {
	// DeleteExpired removes the sessions and verification tokens that
	// expired before now and returns how many of each it removed.
	DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error)
}

// SessionLister is implemented by adapters that can list a user's
// database sessions, for the session management routes
// (GET {base}/sessions).
type SessionLister interface {
	// ListSessions returns the user's sessions (expired ones included;
	// the caller decides), with Provider and SID as recorded, ordered by
	// expiry, latest first. None, not an error, for a user without any.
	ListSessions(ctx context.Context, userID string) ([]Session, error)
}

// PasswordStore is implemented by adapters that keep password hashes for
// the password-accounts provider (providers/passwordaccount). The hash is the
// encoded string of package password (argon2id, PHC format); the store
// keeps it as given, apart from the user's row, and never logs it.
type PasswordStore interface {
	// PasswordHash returns the user's encoded password hash, or
	// ErrNotFound when the user has no password (or does not exist).
	PasswordHash(ctx context.Context, userID string) (string, error)
	// SetPasswordHash creates or replaces the user's password hash;
	// ErrNotFound when the user does not exist. DeleteUser removes it.
	SetPasswordHash(ctx context.Context, userID, hash string) error
	// DeletePasswordHash removes the user's password; removing none is
	// no error.
	DeletePasswordHash(ctx context.Context, userID string) error
}

// Wrapper is implemented by adapters that hand some calls to another
// (adapter/redisstore keeps sessions itself and users in its primary). A
// wrapper has every optional method, answering errors.ErrUnsupported for
// those its primary lacks: ask Supports, not a type assertion.
type Wrapper interface {
	Primary() Adapter
}

// Supports reports whether a implements the optional interface T (such
// as PasswordStore or twofactor.Store), looking through Wrappers to the
// adapter that does the work.
func Supports[T any](a Adapter) bool {
	for {
		w, ok := a.(Wrapper)
		if !ok {
			break
		}
		a = w.Primary()
	}
	_, ok := a.(T)
	return ok
}

// LiveSessions is implemented by adapters that keep sessions in a store
// shared by every instance and fast enough to read on every request
// (adapter/redisstore). The handler then leaves the cookie cache off
// (gatehouse.CookieCache), so that a session ended on one instance is
// refused by every instance at its next request, not up to the cache's
// MaxAge later.
type LiveSessions interface {
	// LiveSessions reports whether the adapter reads sessions live.
	LiveSessions() bool
}
