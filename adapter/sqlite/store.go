package sqlite

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// The methods of this file run the statements the adapter shares with the
// PostgreSQL adapter (sqlstore.Store); the others, those that differ.

// CreateUser stores u, assigning an ID when u.ID is empty.
func (a *Adapter) CreateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	return a.store.CreateUser(ctx, u)
}

// CreateUserWithAccount stores u and its first account a in one
// transaction.
func (a *Adapter) CreateUserWithAccount(ctx context.Context, u adapter.User, acc account.Account) (adapter.User, error) {
	return a.store.CreateUserWithAccount(ctx, u, acc)
}

// GetUser returns the user with the given id.
func (a *Adapter) GetUser(ctx context.Context, id string) (adapter.User, error) {
	return a.store.GetUser(ctx, id)
}

// GetUserByEmail returns the user with the given e-mail address. An empty
// address matches no user.
func (a *Adapter) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	return a.store.GetUserByEmail(ctx, email)
}

// GetUserByAccount returns the user linked to the provider account.
func (a *Adapter) GetUserByAccount(ctx context.Context, provider, providerAccountID string) (adapter.User, error) {
	return a.store.GetUserByAccount(ctx, provider, providerAccountID)
}

// UpdateUser replaces the stored user with the same ID.
func (a *Adapter) UpdateUser(ctx context.Context, u adapter.User) (adapter.User, error) {
	return a.store.UpdateUser(ctx, u)
}

// UnlinkAccount removes the provider account.
func (a *Adapter) UnlinkAccount(ctx context.Context, provider, providerAccountID string) error {
	return a.store.UnlinkAccount(ctx, provider, providerAccountID)
}

// GetAccount returns the provider account.
func (a *Adapter) GetAccount(ctx context.Context, provider, providerAccountID string) (account.Account, error) {
	return a.store.GetAccount(ctx, provider, providerAccountID)
}

// ListAccounts returns the user's accounts ordered by provider and provider
// account id; none for an unknown user.
func (a *Adapter) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	return a.store.ListAccounts(ctx, userID)
}

// UpdateAccount replaces the token set of the account with the same
// (Provider, ProviderAccountID). The user and type stay as they are.
func (a *Adapter) UpdateAccount(ctx context.Context, acc account.Account) error {
	return a.store.UpdateAccount(ctx, acc)
}

// UpdateSession sets the session's expiry, and its UpdatedAt to now, and
// returns the session.
func (a *Adapter) UpdateSession(ctx context.Context, token string, expires time.Time) (adapter.Session, error) {
	return a.store.UpdateSession(ctx, token, expires)
}

// DeleteSession removes the session and returns it as it was.
func (a *Adapter) DeleteSession(ctx context.Context, token string) (adapter.Session, error) {
	return a.store.DeleteSession(ctx, token)
}

// CreateVerificationToken stores t.
func (a *Adapter) CreateVerificationToken(ctx context.Context, t adapter.VerificationToken) error {
	return a.store.CreateVerificationToken(ctx, t)
}

// UseVerificationToken deletes and returns the token matching both
// identifier and hash, in one DELETE ... RETURNING statement.
func (a *Adapter) UseVerificationToken(ctx context.Context, identifier, tokenHash string) (adapter.VerificationToken, error) {
	return a.store.UseVerificationToken(ctx, identifier, tokenHash)
}

// DeleteExpired removes the sessions and verification tokens that expired
// before now (adapter.Sweeper).
func (a *Adapter) DeleteExpired(ctx context.Context, now time.Time) (sessions, tokens int, err error) {
	return a.store.DeleteExpired(ctx, now)
}

// DeleteUserSessions removes every session of the user userID.
func (a *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	return a.store.DeleteUserSessions(ctx, userID)
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (a *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	return a.store.DeleteProviderSessions(ctx, provider, userID, sid)
}

// ListSessions returns the user's sessions, latest expiry first
// (adapter.SessionLister).
func (a *Adapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	return a.store.ListSessions(ctx, userID)
}

// GetAuthenticator returns the credential with the given id.
func (a *Adapter) GetAuthenticator(ctx context.Context, credentialID string) (adapter.Authenticator, error) {
	return a.store.GetAuthenticator(ctx, credentialID)
}

// ListAuthenticatorsByUserID returns the user's credentials ordered by
// credential id; none for an unknown user.
func (a *Adapter) ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]adapter.Authenticator, error) {
	return a.store.ListAuthenticatorsByUserID(ctx, userID)
}

// UpdateAuthenticatorCounter sets the sign counter when it advances, in
// one statement, so that of two concurrent updates to the same value one
// changes no row.
func (a *Adapter) UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (adapter.Authenticator, error) {
	return a.store.UpdateAuthenticatorCounter(ctx, credentialID, counter)
}

// PasswordHash returns the user's password hash (adapter.PasswordStore).
func (a *Adapter) PasswordHash(ctx context.Context, userID string) (string, error) {
	return a.store.PasswordHash(ctx, userID)
}

// DeletePasswordHash removes the user's password hash
// (adapter.PasswordStore).
func (a *Adapter) DeletePasswordHash(ctx context.Context, userID string) error {
	return a.store.DeletePasswordHash(ctx, userID)
}

// TwoFactor returns the user's two-factor secret with its backup codes, in
// one query (twofactor.Store).
func (a *Adapter) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	return a.store.TwoFactor(ctx, userID)
}

// AdvanceTOTPStep moves the user's last accepted TOTP step forward to
// step, in one conditional UPDATE, so that of two requests with the same
// code only one succeeds (RFC 6238 §5.2); twofactor.ErrReplayed when the
// step is not past the last (twofactor.Store).
func (a *Adapter) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	return a.store.AdvanceTOTPStep(ctx, userID, step)
}

// ReplaceBackupCodes replaces the user's backup code hashes in one
// transaction (twofactor.Store).
func (a *Adapter) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error {
	return a.store.ReplaceBackupCodes(ctx, userID, hashes, putBackupCodes)
}

// ConsumeBackupCode removes hash from the user's backup codes in one
// DELETE, whose row count says whether it was there: of two requests with
// the same code only one succeeds (twofactor.Store).
func (a *Adapter) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	return a.store.ConsumeBackupCode(ctx, userID, hash)
}

// The interfaces the adapter implements.
var (
	_ adapter.Adapter                = (*Adapter)(nil)
	_ adapter.Migrator               = (*Adapter)(nil)
	_ adapter.AuthenticatorAdapter   = (*Adapter)(nil)
	_ adapter.SessionRevoker         = (*Adapter)(nil)
	_ adapter.ProviderSessionRevoker = (*Adapter)(nil)
	_ adapter.PasswordStore          = (*Adapter)(nil)
	_ twofactor.Store                = (*Adapter)(nil)
)
