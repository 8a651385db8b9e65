// Package adapter is the persistence contract of Gatehouse: users, the
// accounts that link them to providers, database sessions and e-mail
// verification tokens (the Auth.js adapter method set, with typed results).
//
// Implementations live below: adapter/memory (tests), adapter/sqlite (the
// embedded default) and adapter/postgres. adapter/adaptertest is the
// conformance suite every implementation passes; run it against your own.
package adapter

import (
	"context"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
)

// ErrNotFound is returned (possibly wrapped) when the thing asked for does
// not exist. Lookups never answer a zero value with a nil error.
var ErrNotFound = errors.New("adapter: not found")

// ErrConflict is returned (possibly wrapped) when a write would break a
// uniqueness rule: a second user with the same e-mail address, a second
// account with the same (provider, provider account id), a second session
// with the same token.
var ErrConflict = errors.New("adapter: conflict")

// User is a stored user.
type User struct {
	ID            string
	Name          string
	Email         string // unique when not empty; stored as given (callers normalise)
	EmailVerified *time.Time
	Image         string
}

// Session is a database session. Token is what the session cookie holds;
// implementations store and compare it as given (Gatehouse passes a hash
// of the cookie's value, so a leaked table does not leak sessions).
type Session struct {
	Token   string
	UserID  string
	Expires time.Time
	// Provider is the id of the provider the session was signed in with,
	// and SID that provider's session id (the ID token's sid claim), when
	// it sent one. They are recorded by CreateSession for back-channel
	// logout (ProviderSessionRevoker); GetSessionAndUser need not return
	// them.
	Provider string
	SID      string
	// CreatedAt is when the session was made, UpdatedAt when its expiry
	// was last extended (the session routes show it as "last seen", to
	// within Config.Session.UpdateAge), and UserAgent a coarse description
	// of the browser that made it, such as "Firefox on Linux" (never the
	// raw header, and nothing that locates the user). CreateSession stores
	// all three (UpdatedAt defaults to CreatedAt), UpdateSession sets
	// UpdatedAt to the current time, and ListSessions returns them.
	// GetSessionAndUser returns CreatedAt too: it tells a fresh sign-in
	// (SessionConfig.FreshAge) from an old one.
	CreatedAt time.Time
	UpdatedAt time.Time
	UserAgent string
}

// VerificationToken is a one-time e-mail sign-in token. TokenHash is never
// the token itself.
type VerificationToken struct {
	Identifier string
	TokenHash  string
	Expires    time.Time
}

// Adapter stores users, accounts, sessions and verification tokens. Every
// method is safe for concurrent use. Methods that find one thing return
// ErrNotFound when there is none.
type Adapter interface {
	// CreateUser stores u, assigning an ID when u.ID is empty, and returns
	// it as stored. ErrConflict when the e-mail address is taken.
	CreateUser(ctx context.Context, u User) (User, error)
	// CreateUserWithAccount stores a new user and its first account in one
	// transaction: both or neither. ErrConflict when either already exists.
	// a.UserID is ignored and set to the new user's id.
	CreateUserWithAccount(ctx context.Context, u User, a account.Account) (User, error)
	GetUser(ctx context.Context, id string) (User, error)
	GetUserByEmail(ctx context.Context, email string) (User, error)
	// GetUserByAccount returns the user linked to the provider account.
	GetUserByAccount(ctx context.Context, provider, providerAccountID string) (User, error)
	// UpdateUser replaces the stored user with the same ID.
	UpdateUser(ctx context.Context, u User) (User, error)
	// DeleteUser removes the user with its accounts and sessions.
	DeleteUser(ctx context.Context, id string) error

	// LinkAccount stores a; ErrConflict when (Provider, ProviderAccountID)
	// is already linked, ErrNotFound when the user does not exist.
	LinkAccount(ctx context.Context, a account.Account) error
	UnlinkAccount(ctx context.Context, provider, providerAccountID string) error
	GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error)
	// ListAccounts returns the user's accounts (empty, not an error, when none).
	ListAccounts(ctx context.Context, userID string) ([]account.Account, error)
	// UpdateAccount replaces the token set of the account with the same
	// (Provider, ProviderAccountID), e.g. after a refresh.
	UpdateAccount(ctx context.Context, a account.Account) error

	// CreateSession stores s; ErrConflict when the token exists.
	CreateSession(ctx context.Context, s Session) (Session, error)
	// GetSessionAndUser returns the session and its user in one query.
	// Expired sessions are returned as they are; the caller decides.
	GetSessionAndUser(ctx context.Context, token string) (Session, User, error)
	// UpdateSession sets the session's expiry.
	UpdateSession(ctx context.Context, token string, expires time.Time) (Session, error)
	// DeleteSession removes the session and returns it as it was.
	DeleteSession(ctx context.Context, token string) (Session, error)

	CreateVerificationToken(ctx context.Context, t VerificationToken) error
	// UseVerificationToken deletes and returns the token matching both
	// identifier and hash, atomically: of two concurrent calls one gets
	// it, the other ErrNotFound. Expired tokens are returned too (and
	// deleted); the caller checks Expires.
	UseVerificationToken(ctx context.Context, identifier, tokenHash string) (VerificationToken, error)
}

// Migrator is implemented by adapters whose schema is created on request.
type Migrator interface {
	// Migrate creates or upgrades the schema; it is safe to call on every
	// start and from several processes at once.
	Migrate(ctx context.Context) error
}
