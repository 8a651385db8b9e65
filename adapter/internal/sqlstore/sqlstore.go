// Package sqlstore holds what the SQLite and PostgreSQL adapters do alike:
// the statements that are the same for both (Store, run on a Querier with
// PostgreSQL's numbered $N placeholders, which modernc.org/sqlite binds by
// number too), the column lists of their SELECTs, the statement arguments
// and row scanning of users, accounts, sessions, verification tokens and
// authenticators, the mapping of driver errors to adapter errors, and the
// bookkeeping of migrations.
//
// What differs stays in each adapter: the statements that differ (how a
// missing user is refused, upserts, backup code inserts, locking,
// migration transactions), the Querier on its driver, and the Dialect,
// which says how a time and an account's Extra are stored and which
// driver errors mean what.
package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
)

// The column lists the adapters select, in the order the Scan methods of
// Dialect read them. UserColumns qualifies its columns with the alias u.
const (
	UserColumns    = `u.id, u.name, COALESCE(u.email, ''), u.email_verified, u.image`
	AccountColumns = `provider, provider_account_id, user_id, type,
	access_token, id_token, refresh_token, expires_at, expires_in,
	scope, token_type, session_state, extra`
	SessionColumns           = `token, user_id, expires, provider, sid, created_at, updated_at, user_agent`
	VerificationTokenColumns = `identifier, token_hash, expires`
	AuthenticatorColumns     = `credential_id, user_id, provider_account_id, credential_public_key,
	counter, credential_device_type, credential_backed_up, transports`
)

// Row is one row of a result: a *sql.Row or *sql.Rows of database/sql,
// or a pgx.Row or pgx.Rows.
type Row interface {
	Scan(dest ...any) error
}

// Rows is a result of several rows, as Querier.Query returns it: a
// pgx.Rows, or a *sql.Rows behind SQL.
type Rows interface {
	Row
	Next() bool
	Err() error
	Close()
}

// Dialect is how one database stores what the adapters share, and how its
// driver reports errors. Its methods are what the adapters do alike.
type Dialect struct {
	// Name begins every error message, as in "sqlite: get user: ...".
	Name string
	// Time returns the scan destination that reads a time column into
	// *t; NullTime one that reads a nullable time column into *t (nil
	// for NULL).
	Time     func(t *time.Time) any
	NullTime func(t **time.Time) any
	// TimeArg returns the statement argument that stores a time;
	// NullTimeArg one that stores an optional time (SQL NULL for nil).
	TimeArg     func(t time.Time) any
	NullTimeArg func(t *time.Time) any
	// ExtraArg returns the statement argument that stores an account's
	// Extra as stored.EncodeExtra encoded it (SQL NULL for nil).
	ExtraArg func(b []byte) any
	// LockUser is the statement that locks the row of the user $1 until
	// the transaction ends, and counts it: so that a row naming the user
	// cannot be added meanwhile (on PostgreSQL a SELECT ... FOR UPDATE,
	// which an insert's foreign-key check waits for; on SQLite a write,
	// which takes the database's write lock first thing, as a
	// transaction that read first could not take it later).
	LockUser string
	// ErrNoRows is the driver's error for a query that returned no row.
	ErrNoRows error
	// Kind returns adapter.ErrConflict for a driver error that is a
	// uniqueness violation, adapter.ErrNotFound for one that is a missing
	// foreign-key target, and nil for any other.
	Kind func(err error) error
}

// Error wraps err, the failure of what, adding adapter.ErrNotFound for a
// missing row or foreign-key target and adapter.ErrConflict for a
// uniqueness violation.
func (d Dialect) Error(what string, err error) error {
	if errors.Is(err, d.ErrNoRows) {
		return d.NotFound(what)
	}
	if kind := d.Kind(err); kind != nil {
		return fmt.Errorf("%s: %s: %w: %w", d.Name, what, kind, err)
	}
	return fmt.Errorf("%s: %s: %w", d.Name, what, err)
}

// NotFound returns adapter.ErrNotFound for what, as when a statement
// changed no row.
func (d Dialect) NotFound(what string) error {
	return fmt.Errorf("%s: %s: %w", d.Name, what, adapter.ErrNotFound)
}

// UpdatedCounter ends UpdateAuthenticatorCounter given row, the result of
// an UPDATE of credentialID's counter to counter, made only when it
// advances, RETURNING the AuthenticatorColumns. When the UPDATE changed
// no row, it tells an unknown credential (the error of get) from a
// counter that did not advance (adapter.ErrCounterRegression).
func (d Dialect) UpdatedCounter(ctx context.Context, row Row, credentialID string, counter uint32,
	get func(ctx context.Context, credentialID string) (adapter.Authenticator, error)) (adapter.Authenticator, error) {
	au, err := d.ScanAuthenticator(row)
	if err == nil {
		return au, nil
	} else if !errors.Is(err, adapter.ErrNotFound) {
		return adapter.Authenticator{}, err
	}
	if _, err := get(ctx, credentialID); err != nil {
		return adapter.Authenticator{}, err
	}
	return adapter.Authenticator{}, fmt.Errorf("%s: authenticator %q: counter %d: %w", d.Name, credentialID, counter, adapter.ErrCounterRegression)
}

// UserArgs returns the arguments id, name, e-mail address, verification
// time and image of u: $1 to $5 (or ?1 to ?5).
func (d Dialect) UserArgs(u adapter.User) []any {
	return []any{u.ID, u.Name, u.Email, d.NullTimeArg(u.EmailVerified), u.Image}
}

// AccountArgs returns the values of AccountColumns for acc.
func (d Dialect) AccountArgs(acc account.Account) ([]any, error) {
	extra, err := stored.EncodeExtra(acc.Extra)
	if err != nil {
		return nil, err
	}
	return []any{
		acc.Provider, acc.ProviderAccountID, acc.UserID, string(acc.Type),
		acc.AccessToken, acc.IDToken, acc.RefreshToken, acc.ExpiresAt, acc.ExpiresIn,
		acc.Scope, acc.TokenType, acc.SessionState, d.ExtraArg(extra),
	}, nil
}

// TokenSetArgs returns the arguments of an update of acc's token set: the
// provider and provider account id ($1, $2), then access_token, id_token,
// refresh_token, expires_at, expires_in, scope, token_type, session_state
// and extra ($3 to $11).
func (d Dialect) TokenSetArgs(acc account.Account) ([]any, error) {
	extra, err := stored.EncodeExtra(acc.Extra)
	if err != nil {
		return nil, err
	}
	return []any{
		acc.Provider, acc.ProviderAccountID,
		acc.AccessToken, acc.IDToken, acc.RefreshToken, acc.ExpiresAt, acc.ExpiresIn,
		acc.Scope, acc.TokenType, acc.SessionState, d.ExtraArg(extra),
	}, nil
}

// AuthenticatorArgs returns the values of AuthenticatorColumns for au.
func AuthenticatorArgs(au adapter.Authenticator) []any {
	return []any{
		au.CredentialID, au.UserID, au.ProviderAccountID, au.CredentialPublicKey,
		int64(au.Counter), au.CredentialDeviceType, au.CredentialBackedUp, au.Transports,
	}
}

// ScanUser reads the UserColumns of row; what names the query in errors.
func (d Dialect) ScanUser(row Row, what string) (adapter.User, error) {
	var u adapter.User
	if err := row.Scan(&u.ID, &u.Name, &u.Email, d.NullTime(&u.EmailVerified), &u.Image); err != nil {
		return adapter.User{}, d.Error(what, err)
	}
	utcPtr(u.EmailVerified)
	return u, nil
}

// ScanAccount reads the AccountColumns of row.
func (d Dialect) ScanAccount(row Row) (account.Account, error) {
	var (
		acc   account.Account
		typ   string
		extra []byte
	)
	err := row.Scan(&acc.Provider, &acc.ProviderAccountID, &acc.UserID, &typ,
		&acc.AccessToken, &acc.IDToken, &acc.RefreshToken, &acc.ExpiresAt, &acc.ExpiresIn,
		&acc.Scope, &acc.TokenType, &acc.SessionState, &extra)
	if err != nil {
		return account.Account{}, d.Error("get account", err)
	}
	acc.Type = account.Type(typ)
	if extra != nil {
		if acc.Extra, err = stored.DecodeExtra(extra); err != nil {
			return account.Account{}, err
		}
	}
	return acc, nil
}

// PrepareSession returns s with its times as they are stored, and
// UpdatedAt defaulting to CreatedAt (adapter.Session).
func PrepareSession(s adapter.Session) adapter.Session {
	s.Expires = stored.Time(s.Expires)
	s.CreatedAt = stored.Time(s.CreatedAt)
	if s.UpdatedAt.IsZero() {
		s.UpdatedAt = s.CreatedAt
	}
	s.UpdatedAt = stored.Time(s.UpdatedAt)
	return s
}

// SessionArgs returns the values of SessionColumns for s, as
// PrepareSession returned it. A zero CreatedAt or UpdatedAt is stored as
// NULL, as the rows made before the columns existed hold.
func (d Dialect) SessionArgs(s adapter.Session) []any {
	return []any{
		s.Token, s.UserID, d.TimeArg(s.Expires), s.Provider, s.SID,
		d.NullTimeArg(optional(s.CreatedAt)), d.NullTimeArg(optional(s.UpdatedAt)), s.UserAgent,
	}
}

// optional returns nil for the zero time, and &t for any other.
func optional(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// ScanSession reads the SessionColumns of row; what names the query in
// errors. A NULL created_at or updated_at (a session made before the
// adapter recorded them) reads as the zero time.
func (d Dialect) ScanSession(row Row, what string) (adapter.Session, error) {
	var (
		s                adapter.Session
		created, updated *time.Time
	)
	err := row.Scan(&s.Token, &s.UserID, d.Time(&s.Expires), &s.Provider, &s.SID,
		d.NullTime(&created), d.NullTime(&updated), &s.UserAgent)
	if err != nil {
		return adapter.Session{}, d.Error(what, err)
	}
	s.Expires = s.Expires.UTC()
	if created != nil {
		s.CreatedAt = created.UTC()
	}
	if updated != nil {
		s.UpdatedAt = updated.UTC()
	}
	return s, nil
}

// ScanSessionAndUser reads the token, user_id, expires and created_at of
// the session (alias s; SessionAndUserColumns) followed by the
// UserColumns of its user.
func (d Dialect) ScanSessionAndUser(row Row) (adapter.Session, adapter.User, error) {
	var (
		s       adapter.Session
		u       adapter.User
		created *time.Time
	)
	err := row.Scan(&s.Token, &s.UserID, d.Time(&s.Expires), d.NullTime(&created),
		&u.ID, &u.Name, &u.Email, d.NullTime(&u.EmailVerified), &u.Image)
	if err != nil {
		return adapter.Session{}, adapter.User{}, d.Error("get session", err)
	}
	s.Expires = s.Expires.UTC()
	if created != nil {
		s.CreatedAt = created.UTC()
	}
	utcPtr(u.EmailVerified)
	return s, u, nil
}

// ScanVerificationToken reads the VerificationTokenColumns of row.
func (d Dialect) ScanVerificationToken(row Row) (adapter.VerificationToken, error) {
	var t adapter.VerificationToken
	if err := row.Scan(&t.Identifier, &t.TokenHash, d.Time(&t.Expires)); err != nil {
		return adapter.VerificationToken{}, d.Error("use verification token", err)
	}
	t.Expires = t.Expires.UTC()
	return t, nil
}

// ScanAuthenticator reads the AuthenticatorColumns of row.
func (d Dialect) ScanAuthenticator(row Row) (adapter.Authenticator, error) {
	var (
		au      adapter.Authenticator
		counter int64
	)
	err := row.Scan(&au.CredentialID, &au.UserID, &au.ProviderAccountID, &au.CredentialPublicKey,
		&counter, &au.CredentialDeviceType, &au.CredentialBackedUp, &au.Transports)
	if err != nil {
		return adapter.Authenticator{}, d.Error("get authenticator", err)
	}
	au.Counter = uint32(counter)
	return au, nil
}

// TwoFactorColumns are the columns ScanTwoFactor reads: the user's row of
// gatehouse_two_factor (alias t) joined to its backup codes (alias c), in
// order. Select them with a LEFT JOIN ordered by c.position, so that a
// user without backup codes still has a row.
const TwoFactorColumns = `t.sealed, t.enabled, t.last_step, c.hash`

// ScanTwoFactor reads a user's Secret from rows, the result of a query of
// the TwoFactorColumns; twofactor.ErrNotEnrolled when it has none. The
// caller closes rows. One query reads the secret and its codes together,
// so that they are from one snapshot of the database.
func (d Dialect) ScanTwoFactor(rows Rows, userID string) (twofactor.Secret, error) {
	var (
		s     twofactor.Secret
		found bool
	)
	for rows.Next() {
		var hash *string
		if err := rows.Scan(&s.Sealed, &s.Enabled, &s.LastStep, &hash); err != nil {
			return twofactor.Secret{}, d.Error("get two-factor secret", err)
		}
		found = true
		if hash != nil {
			s.BackupCodes = append(s.BackupCodes, *hash)
		}
	}
	if err := rows.Err(); err != nil {
		return twofactor.Secret{}, d.Error("get two-factor secret", err)
	}
	if !found {
		return twofactor.Secret{}, d.NotEnrolled(userID)
	}
	return s, nil
}

// NotEnrolled returns twofactor.ErrNotEnrolled for userID.
func (d Dialect) NotEnrolled(userID string) error {
	return fmt.Errorf("%s: two-factor secret of %q: %w", d.Name, userID, twofactor.ErrNotEnrolled)
}

// ScanAll reads every row of rows with scan, returning an empty list (not
// nil) for none; what names the query in errors. The caller closes rows.
func ScanAll[T any](d Dialect, rows Rows, what string, scan func(Row) (T, error)) ([]T, error) {
	list := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, d.Error(what, err)
	}
	return list, nil
}

// utcPtr sets *t, when t is not nil, to the same time in UTC.
func utcPtr(t *time.Time) {
	if t != nil {
		*t = t.UTC()
	}
}

// Unchanged is the error of a conditional UPDATE or DELETE of userID's
// two-factor state (what) that changed no row: d.NotEnrolled when the
// user has no secret (enrolled says whether they have), miss (such as
// twofactor.ErrReplayed) when they have one and the condition failed.
func (d Dialect) Unchanged(what, userID string, enrolled func() (bool, error), miss error) error {
	ok, err := enrolled()
	if err != nil {
		return d.Error(what, err)
	}
	if !ok {
		return d.NotEnrolled(userID)
	}
	return fmt.Errorf("%s: %s of %q: %w", d.Name, what, userID, miss)
}
