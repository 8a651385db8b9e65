// Package secondfactor holds what two-factor sign-in's routes
// (internal/twofactorflow, internal/selfservice) and the handler's events
// share with package twofactor, without its TOTP and QR code
// dependencies: the types twofactor re-exports, its errors, the
// interfaces of twofactor.Service the routes call, and Feature, through
// which twofactor.SignIn turns two-factor sign-in on
// (gatehouse.Config.TwoFactor). A program that does not turn it on links
// this package and not twofactor.
//
// Feature is here, not in internal/plugin, because package twofactor
// must not import what the adapters' tests import: the adapters import
// twofactor.
package secondfactor

import (
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/limit"
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

// Env is what two-factor sign-in is built with: the Handler's adapter
// (Config.Adapter) and secrets, and its limits.
type Env struct {
	Users  adapter.Adapter
	Secret []string
	// Limiter returns l when it is set, and otherwise the limit called
	// name that Config.Limits makes, with max attempts per key within
	// window.
	Limiter func(l limit.Limiter, name string, max int, window time.Duration) limit.Limiter
}

// Feature turns two-factor sign-in on: twofactor.SignIn.
type Feature interface {
	// NewTwoFactor checks the configuration against the Handler's and
	// returns the service the second step and the settings routes call,
	// and the limits of code attempts per pending sign-in and per user.
	// An error is a *autherr.ConfigError. gatehouse.New calls it;
	// applications do not.
	NewTwoFactor(e Env) (svc Service, perPending, perUser limit.Limiter, err error)
}
