package redisstore

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/gatehouse-auth/gatehouse/adapter"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
)

// Password hashes and two-factor secrets belong with the user, in the
// primary: the store hands every call to it. Go cannot add a method set
// to the wrapper only when the primary has it without one wrapper type
// per combination, so the store always has these methods, and they
// return ErrUnsupported (wrapping errors.ErrUnsupported) when the primary
// does not implement the interface. Use Supports to ask beforehand.

var (
	_ adapter.PasswordStore = (*store)(nil)
	_ twofactor.Store       = (*store)(nil)
)

// ErrUnsupported is returned (wrapped) by the adapter.PasswordStore and
// twofactor.Store methods of the adapter New returns when its primary
// does not implement that interface. It wraps errors.ErrUnsupported.
var ErrUnsupported = fmt.Errorf("redisstore: the primary adapter does not implement it: %w", errors.ErrUnsupported)

// Supports reports whether a implements T, looking through an adapter
// New returned to its primary (adapter.Supports): Supports[adapter.PasswordStore](a)
// is false for a store over a primary without password hashes, though the
// store has the methods.
func Supports[T any](a adapter.Adapter) bool { return adapter.Supports[T](a) }

// primary returns the store's primary as T, or ErrUnsupported naming T.
func primary[T any](s *store) (T, error) {
	p, ok := s.Adapter.(T)
	if !ok {
		return p, fmt.Errorf("%w: %v", ErrUnsupported, reflect.TypeFor[T]())
	}
	return p, nil
}

// call hands a call that returns a value to the primary as T.
func call[T, R any](s *store, fn func(p T) (R, error)) (R, error) {
	p, err := primary[T](s)
	if err != nil {
		var zero R
		return zero, err
	}
	return fn(p)
}

// do hands a call that returns only an error to the primary as T.
func do[T any](s *store, fn func(p T) error) error {
	p, err := primary[T](s)
	if err != nil {
		return err
	}
	return fn(p)
}

// Primary returns the adapter the store hands users, accounts, password
// hashes and two-factor secrets to (adapter.Wrapper).
func (s *store) Primary() adapter.Adapter {
	return s.Adapter
}

// PasswordHash returns the user's password hash from the primary
// (adapter.PasswordStore).
func (s *store) PasswordHash(ctx context.Context, userID string) (string, error) {
	return call(s, func(p adapter.PasswordStore) (string, error) { return p.PasswordHash(ctx, userID) })
}

// SetPasswordHash stores the user's password hash in the primary
// (adapter.PasswordStore).
func (s *store) SetPasswordHash(ctx context.Context, userID, hash string) error {
	return do(s, func(p adapter.PasswordStore) error { return p.SetPasswordHash(ctx, userID, hash) })
}

// DeletePasswordHash removes the user's password hash from the primary
// (adapter.PasswordStore).
func (s *store) DeletePasswordHash(ctx context.Context, userID string) error {
	return do(s, func(p adapter.PasswordStore) error { return p.DeletePasswordHash(ctx, userID) })
}

// TwoFactor returns the user's two-factor secret from the primary
// (twofactor.Store).
func (s *store) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	return call(s, func(p twofactor.Store) (twofactor.Secret, error) { return p.TwoFactor(ctx, userID) })
}

// SetTwoFactor stores the user's two-factor secret in the primary
// (twofactor.Store).
func (s *store) SetTwoFactor(ctx context.Context, userID string, secret twofactor.Secret) error {
	return do(s, func(p twofactor.Store) error { return p.SetTwoFactor(ctx, userID, secret) })
}

// DeleteTwoFactor removes the user's two-factor secret from the primary
// (twofactor.Store).
func (s *store) DeleteTwoFactor(ctx context.Context, userID string) error {
	return do(s, func(p twofactor.Store) error { return p.DeleteTwoFactor(ctx, userID) })
}

// AdvanceTOTPStep advances the user's last TOTP step in the primary,
// which makes it atomic (twofactor.Store).
func (s *store) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	return do(s, func(p twofactor.Store) error { return p.AdvanceTOTPStep(ctx, userID, step) })
}

// ReplaceBackupCodes replaces the user's backup codes in the primary
// (twofactor.Store).
func (s *store) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error {
	return do(s, func(p twofactor.Store) error { return p.ReplaceBackupCodes(ctx, userID, hashes) })
}

// ConsumeBackupCode uses one of the user's backup codes in the primary,
// which makes it atomic (twofactor.Store).
func (s *store) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	return do(s, func(p twofactor.Store) error { return p.ConsumeBackupCode(ctx, userID, hash) })
}
