package twofactor

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
)

// Errors, for errors.Is. Returned errors may wrap them with details.
var (
	// ErrInvalidCode: the code is not the user's current TOTP code nor
	// one of their unused backup codes.
	ErrInvalidCode = twofactorcore.ErrInvalidCode
	// ErrReplayed: the TOTP code, or a later one, was accepted before.
	ErrReplayed = twofactorcore.ErrReplayed
	// ErrExpired: the pending sign-in is older than its maximum age.
	ErrExpired = twofactorcore.ErrExpired
	// ErrBindingMismatch: the pending sign-in was started in another
	// browser (its binding differs).
	ErrBindingMismatch = errors.New("twofactor: pending sign-in bound to another browser")
	// ErrPendingInvalid: the pending sign-in value was tampered with,
	// sealed with an unknown secret, or is not a pending value at all.
	ErrPendingInvalid = errors.New("twofactor: invalid pending sign-in")
	// ErrNotEnrolled: the user has no confirmed second factor (Store
	// methods return it for a user without a Secret).
	ErrNotEnrolled = twofactorcore.ErrNotEnrolled
	// ErrAlreadyEnabled: Enroll was called for a user whose two-factor
	// sign-in is on; Disable it first.
	ErrAlreadyEnabled = twofactorcore.ErrAlreadyEnabled
)

// Secret is what a Store keeps for one user: the storage shape of the
// second factor (the adapters keep it without importing this package).
type Secret = twofactorcore.Secret

// Store keeps each user's Secret; an adapter implements it (see
// twofactorcore.Store for the atomicity each method owes).
type Store = twofactorcore.Store

// Config configures a Service.
type Config struct {
	// TOTP sets the codes; its Issuer is required.
	TOTP TOTP
	// Secret is the app's secrets, newest first, as gatehouse.Config's
	// Secret: the keys of this package are derived from them.
	Secret []string
	// Store keeps the users' secrets. Required.
	Store Store
	// PendingMaxAge is how long a pending sign-in lasts. Default:
	// PendingMaxAge (5 minutes).
	PendingMaxAge time.Duration
	// Now is the clock. Default: time.Now.
	Now func() time.Time
}

// Service runs two-factor sign-in: enrolment, verification of TOTP and
// backup codes against a Store, and the pending state between the two
// factors. It is safe for concurrent use.
type Service struct {
	totp          TOTP
	keys          *Keys
	store         Store
	pendingMaxAge time.Duration
	now           func() time.Time
}

// New checks cfg and returns its Service.
func New(cfg Config) (*Service, error) {
	if cfg.TOTP.Issuer == "" {
		return nil, errors.New("twofactor: TOTP.Issuer is required")
	}
	if _, err := cfg.TOTP.params(); err != nil {
		return nil, err
	}
	if cfg.Store == nil {
		return nil, errors.New("twofactor: Store is required")
	}
	keys, err := NewKeys(cfg.Secret)
	if err != nil {
		return nil, err
	}
	s := &Service{totp: cfg.TOTP, keys: keys, store: cfg.Store, pendingMaxAge: cfg.PendingMaxAge, now: cfg.Now}
	if s.pendingMaxAge <= 0 {
		s.pendingMaxAge = PendingMaxAge
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Status is a user's two-factor state, for settings pages and for the
// sign-in to know whether to ask for a second factor: Enabled, and
// BackupCodesLeft.
type Status = twofactorcore.Status

// Status returns userID's two-factor state: the zero Status for a user
// who never enrolled.
func (s *Service) Status(ctx context.Context, userID string) (Status, error) {
	sec, err := s.store.TwoFactor(ctx, userID)
	if errors.Is(err, ErrNotEnrolled) {
		return Status{}, nil
	}
	if err != nil {
		return Status{}, err
	}
	return Status{Enabled: sec.Enabled, BackupCodesLeft: len(sec.BackupCodes)}, nil
}

// Enroll makes a new TOTP secret for userID and stores it sealed, not yet
// enabled, replacing an earlier unconfirmed one. accountName labels it in
// the authenticator app (an e-mail address or user name). Show the
// Enrollment to the user once, then Confirm a code. A user whose
// two-factor sign-in is on gets ErrAlreadyEnabled: replacing a working
// factor takes a Disable first, which the caller should guard with a
// fresh sign-in.
func (s *Service) Enroll(ctx context.Context, userID, accountName string) (Enrollment, error) {
	sec, err := s.store.TwoFactor(ctx, userID)
	switch {
	case err == nil && sec.Enabled:
		return Enrollment{}, ErrAlreadyEnabled
	case err != nil && !errors.Is(err, ErrNotEnrolled):
		return Enrollment{}, err
	}
	e, err := s.totp.Enroll(accountName)
	if err != nil {
		return Enrollment{}, err
	}
	sealed, err := s.keys.SealSecret(userID, e.Secret)
	if err != nil {
		return Enrollment{}, err
	}
	if err := s.store.SetTwoFactor(ctx, userID, Secret{Sealed: sealed}); err != nil {
		return Enrollment{}, err
	}
	return e, nil
}

// Confirm checks a code from the authenticator app against the secret
// Enroll stored, turns two-factor sign-in on and returns the first
// backup codes, to show once. A user with no pending enrolment gets
// ErrNotEnrolled, and one already enabled ErrAlreadyEnabled.
func (s *Service) Confirm(ctx context.Context, userID, code string) ([]string, error) {
	sec, err := s.store.TwoFactor(ctx, userID)
	if err != nil {
		return nil, err
	}
	if sec.Enabled {
		return nil, ErrAlreadyEnabled
	}
	step, err := s.verifyTOTP(ctx, userID, sec, code)
	if err != nil {
		return nil, err
	}
	codes, hashes, err := s.keys.NewBackupCodes()
	if err != nil {
		return nil, err
	}
	sec.Enabled, sec.LastStep, sec.BackupCodes = true, step, hashes
	if err := s.store.SetTwoFactor(ctx, userID, sec); err != nil {
		return nil, err
	}
	return codes, nil
}

// Method is the kind of second factor Verify accepted.
type Method = twofactorcore.Method

// The methods.
const (
	MethodTOTP   = twofactorcore.MethodTOTP
	MethodBackup = twofactorcore.MethodBackup
)

// Verify checks userID's second factor: code is either a TOTP code
// (digits only) or one of the user's backup codes, which it consumes. It
// returns the method it tried; ErrNotEnrolled if the user's
// two-factor sign-in is off, ErrReplayed for a TOTP code used before,
// and ErrInvalidCode for a code that matches nothing. Any other error is
// the Store's, or a stored secret that no key opens (sealed under a
// secret since removed from Config.Secret, or tampered with): a server
// error, not the user's.
//
// Verify does not limit attempts: the caller must (see the package
// documentation).
func (s *Service) Verify(ctx context.Context, userID, code string) (Method, error) {
	sec, err := s.store.TwoFactor(ctx, userID)
	if err != nil {
		return "", err
	}
	if !sec.Enabled {
		return "", ErrNotEnrolled
	}
	if looksLikeBackupCode(code) {
		return MethodBackup, s.consumeBackupCode(ctx, userID, code)
	}
	_, err = s.verifyTOTP(ctx, userID, sec, code)
	return MethodTOTP, err
}

// verifyTOTP checks code against sec's secret and advances the user's
// last step in the store, which refuses the code if another request
// accepted it, or a later one, first.
func (s *Service) verifyTOTP(ctx context.Context, userID string, sec Secret, code string) (int64, error) {
	secret, err := s.keys.OpenSecret(userID, sec.Sealed)
	if err != nil {
		return 0, err
	}
	step, err := s.totp.Verify(secret, code, sec.LastStep, s.now())
	if err != nil {
		return 0, err
	}
	if err := s.store.AdvanceTOTPStep(ctx, userID, step); err != nil {
		return 0, err
	}
	return step, nil
}

// consumeBackupCode removes code from userID's backup codes, under any
// key's hash.
func (s *Service) consumeBackupCode(ctx context.Context, userID, code string) error {
	for _, h := range s.keys.hashBackupCodes(code) {
		err := s.store.ConsumeBackupCode(ctx, userID, h)
		if !errors.Is(err, ErrInvalidCode) {
			return err
		}
	}
	return ErrInvalidCode
}

// RegenerateBackupCodes replaces userID's backup codes with new ones and
// returns them, to show once; the old ones stop working.
func (s *Service) RegenerateBackupCodes(ctx context.Context, userID string) ([]string, error) {
	codes, hashes, err := s.keys.NewBackupCodes()
	if err != nil {
		return nil, err
	}
	if err := s.store.ReplaceBackupCodes(ctx, userID, hashes); err != nil {
		return nil, err
	}
	return codes, nil
}

// Disable turns userID's two-factor sign-in off and forgets the secret
// and backup codes. Guard it with a fresh sign-in: it removes a factor.
func (s *Service) Disable(ctx context.Context, userID string) error {
	return s.store.DeleteTwoFactor(ctx, userID)
}

// StartPending seals a pending sign-in: p says who passed the first
// factor (UserID) and with which provider (Provider, and SID when the
// provider named its session); Issued and ID are filled in. It is bound
// to binding (see Keys.SealPending). The caller sends the sealed value to
// the browser (a cookie, or a hidden form field) instead of a session,
// and keeps the returned Pending's ID to count attempts.
func (s *Service) StartPending(p Pending, binding string) (sealed string, _ Pending, err error) {
	p.Issued = s.now()
	return s.keys.SealPending(p, binding)
}

// OpenPending opens and checks a value from StartPending: see
// Keys.OpenPending, with the Service's clock and PendingMaxAge.
func (s *Service) OpenPending(sealed, binding string) (Pending, error) {
	return s.keys.OpenPending(strings.TrimSpace(sealed), binding, s.now(), s.pendingMaxAge)
}

// Keys returns the Service's keys, for adapters and tools that seal or
// hash outside a Service.
func (s *Service) Keys() *Keys { return s.keys }

// Change is what changed in a user's two-factor sign-in, for audit logs
// (gatehouse.Events.TwoFactor).
type Change = twofactorcore.Change

// The changes.
const (
	Enabled                = twofactorcore.Enabled
	Disabled               = twofactorcore.Disabled
	BackupCodesRegenerated = twofactorcore.BackupCodesRegenerated
	BackupCodeUsed         = twofactorcore.BackupCodeUsed
	CodeRefused            = twofactorcore.CodeRefused
)
