// Package twofactorcore holds what two-factor sign-in's routes
// (internal/twofactorflow, internal/selfservice), the handler's events and
// the adapters share with package twofactor, without its TOTP and QR code
// dependencies: the types twofactor re-exports (the stored Secret and the
// Store the adapters implement among them), its errors, and the
// interfaces of twofactor.Service the routes call. A program that does
// not turn two-factor sign-in on links this package and not twofactor;
// the adapters import it rather than twofactor, so that twofactor may
// import the routes it builds (internal/twofactorflow).
package twofactorcore

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"slices"
	"sync"
	"time"
)

// Errors, for errors.Is (twofactor re-exports them). Returned errors may
// wrap them with details.
var (
	// ErrInvalidCode: the code is not the user's current TOTP code nor
	// one of their unused backup codes.
	ErrInvalidCode = errors.New("twofactor: invalid code")
	// ErrReplayed: the TOTP code, or a later one, was accepted before.
	ErrReplayed = errors.New("twofactor: code already used")
	// ErrExpired: the pending sign-in is older than its maximum age.
	ErrExpired = errors.New("twofactor: pending sign-in expired")
	// ErrNotEnrolled: the user has no confirmed second factor (Store
	// methods return it for a user without a Secret).
	ErrNotEnrolled = errors.New("twofactor: not enrolled")
	// ErrAlreadyEnabled: Enroll was called for a user whose two-factor
	// sign-in is on; Disable it first.
	ErrAlreadyEnabled = errors.New("twofactor: already enabled")
)

// PendingMaxAge is how long a pending sign-in waits for its second
// factor: 5 minutes.
const PendingMaxAge = 5 * time.Minute

// Change is what changed in a user's two-factor sign-in, for audit logs
// (gatehouse.Events.TwoFactor).
type Change string

// The changes.
const (
	Enabled                Change = "enabled"
	Disabled               Change = "disabled"
	BackupCodesRegenerated Change = "backup_codes_regenerated"
	BackupCodeUsed         Change = "backup_code_used"
	CodeRefused            Change = "code_refused"
)

// Status is a user's two-factor state, for settings pages and for the
// sign-in to know whether to ask for a second factor.
type Status struct {
	// Enabled is whether sign-in asks for a second factor.
	Enabled bool
	// BackupCodesLeft is how many unused backup codes the user has.
	BackupCodesLeft int
}

// Enrollment is a new TOTP secret, ready to show to the user once: the
// secret for manual entry, its otpauth:// URI and the URI as a QR code.
type Enrollment struct {
	// Secret is the key, base32 without padding, as authenticator apps
	// take it when typed in.
	Secret string
	// URI is the otpauth://totp/ key URI that authenticator apps scan.
	URI string
	// QR is the URI as a QR code, a PNG image.
	QR []byte
}

// QRDataURL returns the QR code as a data: URL, for an <img src>.
func (e Enrollment) QRDataURL() string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(e.QR)
}

// Method is the kind of second factor Verify accepted.
type Method string

// The methods.
const (
	MethodTOTP   Method = "totp"
	MethodBackup Method = "backup"
)

// Pending is a sign-in that passed its first factor and waits for the
// second. It travels sealed (encrypted and authenticated), in a cookie or
// a form field, between the two steps.
type Pending struct {
	// ID is random and names this pending sign-in: the key to count its
	// attempts under.
	ID string
	// UserID is the user who passed the first factor.
	UserID string
	// Provider is the provider of the first factor, such as "credentials".
	Provider string
	// SID is that provider's session id (an ID token's sid claim), when
	// it sent one: the session made after the second factor records it,
	// for back-channel logout.
	SID string
	// Issued is when the first factor passed.
	Issued time.Time
}

// WrongCode is the catalogue key (pages.Text) of what a refused code is
// told, whatever the reason (wrong, replayed, malformed): the page says no
// more than that.
const WrongCode = "selfservice.wrongCode"

// Settings is what the settings routes ask of *twofactor.Service.
type Settings interface {
	Status(ctx context.Context, userID string) (Status, error)
	Enroll(ctx context.Context, userID, accountName string) (Enrollment, error)
	Confirm(ctx context.Context, userID, code string) ([]string, error)
	Verify(ctx context.Context, userID, code string) (Method, error)
	RegenerateBackupCodes(ctx context.Context, userID string) ([]string, error)
	Disable(ctx context.Context, userID string) error
}

// Service is what the sign-in's second step asks of *twofactor.Service
// besides the settings.
type Service interface {
	Settings
	StartPending(p Pending, binding string) (sealed string, _ Pending, err error)
	OpenPending(sealed, binding string) (Pending, error)
}

// Secret is what a Store keeps for one user: the storage shape of the
// second factor. It holds no usable secret: the TOTP secret is sealed
// with a key derived from the app secret and bound to the user, and the
// backup codes are keyed hashes, so a copy of the database alone lets no
// one compute a code.
type Secret struct {
	// Sealed is the TOTP secret sealed by twofactor.Keys.SealSecret.
	Sealed string
	// Enabled is whether the user confirmed the secret with a code:
	// until then sign-in does not ask for it.
	Enabled bool
	// LastStep is the time step of the last TOTP code accepted, 0 before
	// any: codes for it and earlier steps are refused.
	LastStep int64
	// BackupCodes are the hashes (twofactor.Keys.HashBackupCode) of the unused
	// backup codes.
	BackupCodes []string
}

// Store keeps each user's Secret; an adapter implements it. The methods
// AdvanceTOTPStep and ConsumeBackupCode must be atomic across every
// process that shares the store (a conditional UPDATE, a DELETE whose
// row count is checked, a Redis script): they are what makes a code
// single-use when two requests race with it. An SQL adapter may compare
// backup code hashes with "=" in an index: the hashes are keyed, so the
// time a lookup takes tells nothing about a code.
type Store interface {
	// TwoFactor returns userID's Secret, or ErrNotEnrolled if there is none.
	TwoFactor(ctx context.Context, userID string) (Secret, error)
	// SetTwoFactor creates or replaces userID's Secret.
	SetTwoFactor(ctx context.Context, userID string, s Secret) error
	// DeleteTwoFactor removes userID's Secret; removing none is no error.
	DeleteTwoFactor(ctx context.Context, userID string) error
	// AdvanceTOTPStep sets userID's LastStep to step if step is greater,
	// and otherwise returns ErrReplayed; ErrNotEnrolled if there is no
	// Secret.
	AdvanceTOTPStep(ctx context.Context, userID string, step int64) error
	// ReplaceBackupCodes replaces userID's backup code hashes, leaving the
	// rest of the Secret as it is; ErrNotEnrolled if there is no Secret.
	ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error
	// ConsumeBackupCode removes hash from userID's backup codes, and
	// returns ErrInvalidCode if it was not there; ErrNotEnrolled if there
	// is no Secret.
	ConsumeBackupCode(ctx context.Context, userID, hash string) error
}

// MemoryStore is a Store in process memory, for tests and single-process
// development: its secrets are lost when the process ends. The zero value
// is ready to use.
type MemoryStore struct {
	mu    sync.Mutex
	users map[string]Secret
}

// TwoFactor implements Store.
func (m *MemoryStore) TwoFactor(_ context.Context, userID string) (Secret, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.users[userID]
	if !ok {
		return Secret{}, ErrNotEnrolled
	}
	s.BackupCodes = slices.Clone(s.BackupCodes)
	return s, nil
}

// SetTwoFactor implements Store.
func (m *MemoryStore) SetTwoFactor(_ context.Context, userID string, s Secret) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.users == nil {
		m.users = make(map[string]Secret)
	}
	s.BackupCodes = slices.Clone(s.BackupCodes)
	m.users[userID] = s
	return nil
}

// DeleteTwoFactor implements Store.
func (m *MemoryStore) DeleteTwoFactor(_ context.Context, userID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.users, userID)
	return nil
}

// update runs fn on userID's Secret under the lock and keeps the result
// unless fn fails.
func (m *MemoryStore) update(userID string, fn func(*Secret) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.users[userID]
	if !ok {
		return ErrNotEnrolled
	}
	if err := fn(&s); err != nil {
		return err
	}
	m.users[userID] = s
	return nil
}

// AdvanceTOTPStep implements Store.
func (m *MemoryStore) AdvanceTOTPStep(_ context.Context, userID string, step int64) error {
	return m.update(userID, func(s *Secret) error {
		if step <= s.LastStep {
			return ErrReplayed
		}
		s.LastStep = step
		return nil
	})
}

// ReplaceBackupCodes implements Store.
func (m *MemoryStore) ReplaceBackupCodes(_ context.Context, userID string, hashes []string) error {
	return m.update(userID, func(s *Secret) error {
		s.BackupCodes = slices.Clone(hashes)
		return nil
	})
}

// ConsumeBackupCode implements Store. It compares hash with every stored
// hash in constant time.
func (m *MemoryStore) ConsumeBackupCode(_ context.Context, userID, hash string) error {
	return m.update(userID, func(s *Secret) error {
		found := -1
		for i, h := range s.BackupCodes {
			if subtle.ConstantTimeCompare([]byte(h), []byte(hash)) == 1 {
				found = i
			}
		}
		if found < 0 {
			return ErrInvalidCode
		}
		s.BackupCodes = slices.Delete(slices.Clone(s.BackupCodes), found, found+1)
		return nil
	})
}
