// Package memory is an in-memory implementation of adapter.Adapter, meant
// for tests and examples. Nothing survives the process. It follows the same
// rules as the SQL adapters: e-mail addresses and provider accounts are
// unique, times are kept in UTC with microsecond precision, and the Extra
// map of an account is stored as JSON so that it comes back exactly as the
// SQL adapters would return it.
package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/servicetoken"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
)

// accountKey identifies an account.
type accountKey struct {
	provider          string
	providerAccountID string
}

// tokenKey identifies a verification token.
type tokenKey struct {
	identifier string
	tokenHash  string
}

// storedAccount is an account as kept in the maps, with Extra encoded.
type storedAccount struct {
	acc   account.Account // Extra is always nil here
	extra []byte          // JSON of Extra, nil when empty
}

// Adapter is an in-memory adapter.Adapter. The zero value is not usable;
// call New. All methods are safe for concurrent use.
type Adapter struct {
	mu       sync.Mutex
	users    map[string]adapter.User
	emails   map[string]string // e-mail → user id
	accounts map[accountKey]storedAccount
	sessions map[string]adapter.Session
	tokens   map[tokenKey]adapter.VerificationToken
	// authenticators by credential id (authenticator.go)
	authenticators map[string]adapter.Authenticator
	// locks are the accounts locked by LockAccount: closed when released.
	locks map[accountKey]chan struct{}
	// passwords are the users' password hashes (adapter.PasswordStore).
	passwords map[string]string
	// admin is the users' admin.Status (admin.go).
	admin map[string]admin.Status
	// MemoryStore keeps the users' two-factor secrets: the adapter is a
	// twofactor.Store too.
	twofactor.MemoryStore
	// orgs are the organizations (organizations.go), made on first use.
	orgs *orgData
	// machine keeps API keys and signing keys (machineaccess.go).
	machine machineAccess
}

// The interfaces the adapter implements.
var (
	_ adapter.Adapter                = (*Adapter)(nil)
	_ adapter.AuthenticatorAdapter   = (*Adapter)(nil)
	_ adapter.SessionRevoker         = (*Adapter)(nil)
	_ adapter.ProviderSessionRevoker = (*Adapter)(nil)
	_ apikey.Store                   = (*Adapter)(nil)
	_ servicetoken.KeyStore          = (*Adapter)(nil)
	_ organization.Store             = (*Adapter)(nil)
	_ admin.Store                    = (*Adapter)(nil)
	_ admin.OwnerKeeper              = (*Adapter)(nil)
)

// New returns an empty in-memory adapter.
func New() *Adapter {
	return &Adapter{
		users:    make(map[string]adapter.User),
		emails:   make(map[string]string),
		accounts: make(map[accountKey]storedAccount),
		sessions: make(map[string]adapter.Session),
		tokens:   make(map[tokenKey]adapter.VerificationToken),

		authenticators: make(map[string]adapter.Authenticator),
		passwords:      make(map[string]string),
	}
}

// CreateUser stores u, assigning an ID when u.ID is empty.
func (m *Adapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	return m.createUser(ctx, u, nil)
}

// CreateUserWithAccount stores u and its first account a together, or
// neither of them.
func (m *Adapter) CreateUserWithAccount(ctx context.Context, u adapter.User, a account.Account) (adapter.User, error) {
	return m.createUser(ctx, u, &a)
}

// createUser stores u and, unless a is nil, its first account *a: both
// or neither.
func (m *Adapter) createUser(ctx context.Context, u adapter.User, a *account.Account) (adapter.User, error) {
	if err := ctx.Err(); err != nil {
		return adapter.User{}, err
	}
	u, err := stored.PrepareUser(u)
	if err != nil {
		return adapter.User{}, err
	}
	var sa storedAccount
	if a != nil {
		a.UserID = u.ID
		if sa, err = encodeAccount(*a); err != nil {
			return adapter.User{}, err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkNewUser(u); err != nil {
		return adapter.User{}, err
	}
	if a != nil {
		key := accountKey{a.Provider, a.ProviderAccountID}
		if _, ok := m.accounts[key]; ok {
			return adapter.User{}, fmt.Errorf("memory: account %s/%s: %w", a.Provider, a.ProviderAccountID, adapter.ErrConflict)
		}
		m.accounts[key] = sa
	}
	m.putUser(u)
	return copyUser(u), nil
}

// GetUser returns the user with the given id.
func (m *Adapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	return lockedValue(ctx, m, func() (adapter.User, error) {
		u, ok := m.users[id]
		if !ok {
			return adapter.User{}, fmt.Errorf("memory: user %q: %w", id, adapter.ErrNotFound)
		}
		return copyUser(u), nil
	})
}

// GetUserByEmail returns the user with the given e-mail address. An empty
// address matches no user.
func (m *Adapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	return lockedValue(ctx, m, func() (adapter.User, error) {
		id, ok := m.emails[email]
		if !ok || email == "" {
			return adapter.User{}, fmt.Errorf("memory: user with e-mail %q: %w", email, adapter.ErrNotFound)
		}
		return copyUser(m.users[id]), nil
	})
}

// GetUserByAccount returns the user linked to the provider account.
func (m *Adapter) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	return lockedValue(ctx, m, func() (adapter.User, error) {
		sa, ok := m.accounts[accountKey{provider, providerAccountID}]
		if !ok {
			return adapter.User{}, fmt.Errorf("memory: user of account %s/%s: %w", provider, providerAccountID, adapter.ErrNotFound)
		}
		return copyUser(m.users[sa.acc.UserID]), nil
	})
}

// UpdateUser replaces the stored user with the same ID.
func (m *Adapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	if err := ctx.Err(); err != nil {
		return adapter.User{}, err
	}
	u.EmailVerified = stored.TimePtr(u.EmailVerified)
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.users[u.ID]
	if !ok {
		return adapter.User{}, fmt.Errorf("memory: user %q: %w", u.ID, adapter.ErrNotFound)
	}
	if u.Email != "" {
		if owner, taken := m.emails[u.Email]; taken && owner != u.ID {
			return adapter.User{}, fmt.Errorf("memory: e-mail %q: %w", u.Email, adapter.ErrConflict)
		}
	}
	if old.Email != "" {
		delete(m.emails, old.Email)
	}
	m.putUser(u)
	return copyUser(u), nil
}

// DeleteUser removes the user with its accounts and sessions.
func (m *Adapter) DeleteUser(ctx context.Context, id string) error {
	return m.locked(ctx, func() error {
		return m.deleteUserLocked(ctx, id)
	})
}

// deleteUserLocked is DeleteUser with m.mu held.
func (m *Adapter) deleteUserLocked(ctx context.Context, id string) error {
	u, ok := m.users[id]
	if !ok {
		return fmt.Errorf("memory: user %q: %w", id, adapter.ErrNotFound)
	}
	delete(m.users, id)
	delete(m.passwords, id)
	delete(m.admin, id)
	_ = m.DeleteTwoFactor(ctx, id)
	m.deleteUserOrgs(id)
	m.machine.deleteUser(id)
	if u.Email != "" {
		delete(m.emails, u.Email)
	}
	maps.DeleteFunc(m.accounts, func(_ accountKey, sa storedAccount) bool { return sa.acc.UserID == id })
	maps.DeleteFunc(m.sessions, func(_ string, s adapter.Session) bool { return s.UserID == id })
	maps.DeleteFunc(m.authenticators, func(_ string, a adapter.Authenticator) bool { return a.UserID == id })
	return nil
}

// LinkAccount stores a.
func (m *Adapter) LinkAccount(ctx context.Context, a account.Account) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sa, err := encodeAccount(a)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.users[a.UserID]; !ok {
		return fmt.Errorf("memory: user %q: %w", a.UserID, adapter.ErrNotFound)
	}
	key := accountKey{a.Provider, a.ProviderAccountID}
	if _, ok := m.accounts[key]; ok {
		return fmt.Errorf("memory: account %s/%s: %w", a.Provider, a.ProviderAccountID, adapter.ErrConflict)
	}
	// One account per provider and user, as the SQL schemas keep it.
	for _, other := range m.accounts {
		if other.acc.UserID == a.UserID && other.acc.Provider == a.Provider {
			return fmt.Errorf("memory: user %q already has an account at %s: %w", a.UserID, a.Provider, adapter.ErrConflict)
		}
	}
	m.accounts[key] = sa
	return nil
}

// UnlinkAccount removes the provider account.
func (m *Adapter) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	return m.locked(ctx, func() error {
		key := accountKey{provider, providerAccountID}
		if _, ok := m.accounts[key]; !ok {
			return fmt.Errorf("memory: account %s/%s: %w", provider, providerAccountID, adapter.ErrNotFound)
		}
		delete(m.accounts, key)
		return nil
	})
}

// GetAccount returns the provider account.
func (m *Adapter) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	if err := m.lock(ctx); err != nil {
		return account.Account{}, err
	}
	sa, ok := m.accounts[accountKey{provider, providerAccountID}]
	m.mu.Unlock()
	if !ok {
		return account.Account{}, fmt.Errorf("memory: account %s/%s: %w", provider, providerAccountID, adapter.ErrNotFound)
	}
	return decodeAccount(sa)
}

// ListAccounts returns the user's accounts, ordered by provider and
// provider account id.
func (m *Adapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	var found []storedAccount
	for _, sa := range m.accounts {
		if sa.acc.UserID == userID {
			found = append(found, sa)
		}
	}
	m.mu.Unlock()
	sortAccounts(found)
	list := make([]account.Account, 0, len(found))
	for _, sa := range found {
		a, err := decodeAccount(sa)
		if err != nil {
			return nil, err
		}
		list = append(list, a)
	}
	return list, nil
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID). The user and type stay as they are.
func (m *Adapter) UpdateAccount(ctx context.Context, a account.Account) error {
	return m.locked(ctx, func() error {
		key := accountKey{a.Provider, a.ProviderAccountID}
		old, ok := m.accounts[key]
		if !ok {
			return fmt.Errorf("memory: account %s/%s: %w", a.Provider, a.ProviderAccountID, adapter.ErrNotFound)
		}
		a.UserID = old.acc.UserID
		a.Type = old.acc.Type
		sa, err := encodeAccount(a)
		if err != nil {
			return err
		}
		m.accounts[key] = sa
		return nil
	})
}

// CreateSession stores s.
func (m *Adapter) CreateSession(ctx context.Context, s adapter.Session) (adapter.Session, error) {
	if err := ctx.Err(); err != nil {
		return adapter.Session{}, err
	}
	s.Expires = stored.Time(s.Expires)
	s.CreatedAt = stored.Time(s.CreatedAt)
	s.UpdatedAt = stored.Time(cmp.Or(s.UpdatedAt, s.CreatedAt))
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.users[s.UserID]; !ok {
		return adapter.Session{}, fmt.Errorf("memory: user %q: %w", s.UserID, adapter.ErrNotFound)
	}
	if _, ok := m.sessions[s.Token]; ok {
		return adapter.Session{}, fmt.Errorf("memory: session: %w", adapter.ErrConflict)
	}
	m.sessions[s.Token] = s
	return s, nil
}

// GetSessionAndUser returns the session and its user, expired or not.
func (m *Adapter) GetSessionAndUser(ctx context.Context, token string) (adapter.Session, adapter.User, error) {
	if err := m.lock(ctx); err != nil {
		return adapter.Session{}, adapter.User{}, err
	}
	defer m.mu.Unlock()
	s, ok := m.sessions[token]
	if !ok {
		return adapter.Session{}, adapter.User{}, fmt.Errorf("memory: session: %w", adapter.ErrNotFound)
	}
	return s, copyUser(m.users[s.UserID]), nil
}

// UpdateSession sets the session's expiry and returns the session.
func (m *Adapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	return lockedValue(ctx, m, func() (adapter.Session, error) {
		s, ok := m.sessions[token]
		if !ok {
			return adapter.Session{}, fmt.Errorf("memory: session: %w", adapter.ErrNotFound)
		}
		s.Expires = stored.Time(expires)
		s.UpdatedAt = stored.Time(time.Now())
		m.sessions[token] = s
		return s, nil
	})
}

// DeleteSession removes the session and returns it as it was.
func (m *Adapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	return lockedValue(ctx, m, func() (adapter.Session, error) {
		s, ok := m.sessions[token]
		if !ok {
			return adapter.Session{}, fmt.Errorf("memory: session: %w", adapter.ErrNotFound)
		}
		delete(m.sessions, token)
		return s, nil
	})
}

// CreateVerificationToken stores t.
func (m *Adapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t.Expires = stored.Time(t.Expires)
	m.mu.Lock()
	defer m.mu.Unlock()
	key := tokenKey{t.Identifier, t.TokenHash}
	if _, ok := m.tokens[key]; ok {
		return fmt.Errorf("memory: verification token: %w", adapter.ErrConflict)
	}
	m.tokens[key] = t
	return nil
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash.
func (m *Adapter) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	return lockedValue(ctx, m, func() (adapter.VerificationToken, error) {
		key := tokenKey{identifier, tokenHash}
		t, ok := m.tokens[key]
		if !ok {
			return adapter.VerificationToken{}, fmt.Errorf("memory: verification token: %w", adapter.ErrNotFound)
		}
		delete(m.tokens, key)
		return t, nil
	})
}

// lock takes m.mu for a method, unless ctx is done already: then it
// returns ctx's error and takes nothing. The caller unlocks.
func (m *Adapter) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	return nil
}

// locked runs fn with m.mu held and returns its error; when ctx is done
// already, it returns ctx's error and runs nothing (lock).
func (m *Adapter) locked(ctx context.Context, fn func() error) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	return fn()
}

// lockedValue is locked for an fn that returns a value too: the zero
// value with ctx's error when ctx is done already.
func lockedValue[T any](ctx context.Context, m *Adapter, fn func() (T, error)) (T, error) {
	var v T
	err := m.locked(ctx, func() (err error) {
		v, err = fn()
		return err
	})
	return v, err
}

// checkNewUser reports a conflict when u's id or e-mail address is taken.
// m.mu must be held.
func (m *Adapter) checkNewUser(u adapter.User) error {
	if _, ok := m.users[u.ID]; ok {
		return fmt.Errorf("memory: user id %q: %w", u.ID, adapter.ErrConflict)
	}
	if u.Email != "" {
		if _, ok := m.emails[u.Email]; ok {
			return fmt.Errorf("memory: e-mail %q: %w", u.Email, adapter.ErrConflict)
		}
	}
	return nil
}

// putUser stores u and indexes its e-mail address. m.mu must be held.
func (m *Adapter) putUser(u adapter.User) {
	m.users[u.ID] = copyUser(u)
	if u.Email != "" {
		m.emails[u.Email] = u.ID
	}
}

// copyUser returns u with its own copy of EmailVerified, so that callers
// cannot change what is stored.
func copyUser(u adapter.User) adapter.User {
	if u.EmailVerified != nil {
		t := *u.EmailVerified
		u.EmailVerified = &t
	}
	return u
}

// encodeAccount converts a into its stored form: Extra as JSON.
func encodeAccount(a account.Account) (storedAccount, error) {
	sa := storedAccount{acc: a}
	sa.acc.Extra = nil
	if len(a.Extra) > 0 {
		b, err := json.Marshal(a.Extra)
		if err != nil {
			return storedAccount{}, fmt.Errorf("memory: encoding account extra: %w", err)
		}
		sa.extra = b
	}
	return sa, nil
}

// decodeAccount converts a stored account back, decoding Extra afresh so
// that every caller gets its own map.
func decodeAccount(sa storedAccount) (account.Account, error) {
	a := sa.acc
	if sa.extra != nil {
		if err := json.Unmarshal(sa.extra, &a.Extra); err != nil {
			return account.Account{}, fmt.Errorf("memory: decoding account extra: %w", err)
		}
	}
	return a, nil
}

// collect returns the values of from that keep selects, each through
// copyOf (nil: as they are), in the order that order gives: an empty,
// non-nil slice when keep selects none. m.mu must be held.
func collect[K comparable, V any](from map[K]V, keep func(K, V) bool, copyOf func(V) V, order func(a, b V) int) []V {
	out := []V{}
	for k, v := range from {
		if !keep(k, v) {
			continue
		}
		if copyOf != nil {
			v = copyOf(v)
		}
		out = append(out, v)
	}
	slices.SortFunc(out, order)
	return out
}

// sortAccounts orders accounts by provider, then provider account id.
func sortAccounts(list []storedAccount) {
	slices.SortFunc(list, func(a, b storedAccount) int {
		if c := cmp.Compare(a.acc.Provider, b.acc.Provider); c != 0 {
			return c
		}
		return cmp.Compare(a.acc.ProviderAccountID, b.acc.ProviderAccountID)
	})
}

// LockAccount runs fn holding the account's lock (adapter.AccountLocker),
// in this process: the memory adapter is never shared by two.
func (a *Adapter) LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error {
	k := accountKey{provider, providerAccountID}
	for {
		a.mu.Lock()
		if a.locks == nil {
			a.locks = map[accountKey]chan struct{}{}
		}
		held, ok := a.locks[k]
		if !ok {
			a.locks[k] = make(chan struct{})
			a.mu.Unlock()
			break
		}
		a.mu.Unlock()
		select {
		case <-held:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	defer func() {
		a.mu.Lock()
		close(a.locks[k])
		delete(a.locks, k)
		a.mu.Unlock()
	}()
	return fn(ctx)
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now (adapter.Sweeper).
func (m *Adapter) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	if err := m.lock(ctx); err != nil {
		return 0, 0, err
	}
	defer m.mu.Unlock()
	for k, s := range m.sessions {
		if s.Expires.Before(now) {
			delete(m.sessions, k)
			sessions++
		}
	}
	for k, t := range m.tokens {
		if t.Expires.Before(now) {
			delete(m.tokens, k)
			tokens++
		}
	}
	return sessions, tokens, nil
}

// ListSessions returns the user's sessions, latest expiry first
// (adapter.SessionLister).
func (m *Adapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	return lockedValue(ctx, m, func() ([]adapter.Session, error) {
		return collect(m.sessions, func(_ string, s adapter.Session) bool { return s.UserID == userID }, nil,
			func(a, b adapter.Session) int {
				return cmp.Or(b.Expires.Compare(a.Expires), strings.Compare(a.Token, b.Token))
			}), nil
	})
}

// PasswordHash returns the user's password hash (adapter.PasswordStore).
func (m *Adapter) PasswordHash(ctx context.Context, userID string) (string, error) {
	return lockedValue(ctx, m, func() (string, error) {
		h, ok := m.passwords[userID]
		if !ok {
			return "", fmt.Errorf("memory: password of %q: %w", userID, adapter.ErrNotFound)
		}
		return h, nil
	})
}

// SetPasswordHash stores the user's password hash (adapter.PasswordStore).
func (m *Adapter) SetPasswordHash(ctx context.Context, userID, hash string) error {
	return m.locked(ctx, func() error {
		if _, ok := m.users[userID]; !ok {
			return fmt.Errorf("memory: user %q: %w", userID, adapter.ErrNotFound)
		}
		m.passwords[userID] = hash
		return nil
	})
}

// DeletePasswordHash removes the user's password hash
// (adapter.PasswordStore).
func (m *Adapter) DeletePasswordHash(ctx context.Context, userID string) error {
	return m.locked(ctx, func() error {
		delete(m.passwords, userID)
		return nil
	})
}
