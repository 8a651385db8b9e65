package adapter

import (
	"context"
	"errors"
	"fmt"
)

// ErrCounterRegression is returned (possibly wrapped) by
// UpdateAuthenticatorCounter when the new sign counter is not greater than
// the stored one: WebAuthn §6.1.1 says two copies of the credential's
// private key may then exist (a cloned authenticator). It wraps
// ErrConflict.
var ErrCounterRegression = fmt.Errorf("adapter: the sign counter did not increase (cloned authenticator?): %w", ErrConflict)

// Authenticator is a stored WebAuthn credential, a passkey (Auth.js's
// Authenticator model).
type Authenticator struct {
	// CredentialID is the credential id, base64url without padding (as in
	// the credential's JSON). It is unique.
	CredentialID string
	// UserID is the id of the user the credential signs in.
	UserID string
	// ProviderAccountID is the account id the credential stands for; the
	// credential id, as in Auth.js.
	ProviderAccountID string
	// CredentialPublicKey is the credential's public key, COSE-encoded
	// (WebAuthn §6.5.1.1).
	CredentialPublicKey []byte
	// Counter is the last sign counter seen (WebAuthn §6.1.1); 0 for
	// authenticators that do not count, such as most synced passkeys.
	Counter uint32
	// CredentialDeviceType is "singleDevice" or "multiDevice": whether the
	// credential may be synced (its backup eligibility flag, BE).
	CredentialDeviceType string
	// CredentialBackedUp is the backup state flag (BS) at registration.
	CredentialBackedUp bool
	// Transports are the authenticator's transports, comma-joined (e.g.
	// "internal,hybrid"); "" when unknown.
	Transports string
}

// The values of Authenticator.CredentialDeviceType.
const (
	SingleDevice = "singleDevice"
	MultiDevice  = "multiDevice"
)

// AuthenticatorAdapter is the method set an Adapter also implements to
// store passkeys (the WebAuthn provider types need it). Every method is
// safe for concurrent use.
type AuthenticatorAdapter interface {
	// CreateAuthenticator stores a and returns it as stored. ErrConflict
	// when the credential id is taken, ErrNotFound when the user does not
	// exist. Deleting the user deletes its authenticators.
	CreateAuthenticator(ctx context.Context, a Authenticator) (Authenticator, error)
	// GetAuthenticator returns the authenticator with the credential id.
	GetAuthenticator(ctx context.Context, credentialID string) (Authenticator, error)
	// ListAuthenticatorsByUserID returns the user's authenticators (empty,
	// not an error, when none).
	ListAuthenticatorsByUserID(ctx context.Context, userID string) ([]Authenticator, error)
	// UpdateAuthenticatorCounter sets the stored sign counter to counter,
	// atomically, only when counter is greater than the stored value or
	// both are 0 (an authenticator that does not count). Otherwise it
	// changes nothing and returns ErrCounterRegression, so of two
	// concurrent sign-ins with the same counter one fails.
	UpdateAuthenticatorCounter(ctx context.Context, credentialID string, counter uint32) (Authenticator, error)
}

// CounterAdvances reports whether next may replace the stored sign counter
// stored (WebAuthn §7.2 step 22): it must be greater, unless both are 0.
// Implementations use it, or the same rule in SQL.
func CounterAdvances(stored, next uint32) bool {
	return next > stored || (next == 0 && stored == 0)
}

// errNoAuthenticators is what AsAuthenticatorAdapter wraps.
var errNoAuthenticators = errors.New("the adapter does not implement adapter.AuthenticatorAdapter")

// AsAuthenticatorAdapter returns a as an AuthenticatorAdapter, or an error
// saying it is not one.
func AsAuthenticatorAdapter(a Adapter) (AuthenticatorAdapter, error) {
	if s, ok := a.(AuthenticatorAdapter); ok && a != nil {
		return s, nil
	}
	return nil, fmt.Errorf("%T: %w", a, errNoAuthenticators)
}
