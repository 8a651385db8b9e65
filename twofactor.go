package gatehouse

// Two-factor sign-in: the configuration and the wiring. The step itself
// is internal/secondfactor's, the settings routes internal/selfservice's,
// the codes and the sealed pending state package twofactor's.

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/secondfactor"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// TwoFactorConfig configures two-factor sign-in: codes from an
// authenticator app (TOTP, RFC 6238) and single-use backup codes.
type TwoFactorConfig struct {
	// Enabled lets users turn two-factor sign-in on at
	// {base}/two-factor/setup. It needs an Adapter that is also a
	// twofactor.Store (the built-in adapters are).
	Enabled bool
	// Issuer names the site in authenticator apps. Default: "Gatehouse".
	Issuer string
	// PerPending limits code attempts per pending sign-in (default 5 in
	// its 5 minutes), PerUser failed codes per user across pending
	// sign-ins and the settings routes (default 10 per 15 minutes): a
	// 6-digit code has three good values at a time, so unlimited guessing
	// would find one. Several processes share them through Redis
	// (redislimit), as Config.RateLimit.
	PerPending, PerUser limit.Limiter
}

// TwoFactorChange is what changed in a user's two-factor sign-in, for
// Events.TwoFactor.
type TwoFactorChange = twofactor.Change

// The changes Events.TwoFactor is told of.
const (
	TwoFactorEnabled     = twofactor.Enabled
	TwoFactorDisabled    = twofactor.Disabled
	TwoFactorNewBackup   = twofactor.BackupCodesRegenerated
	TwoFactorBackupUsed  = twofactor.BackupCodeUsed
	TwoFactorCodeRefused = twofactor.CodeRefused
)

// newTwoFactor checks cfg.TwoFactor and returns the second step of h's
// sign-ins, its Service nil when two-factor sign-in is off.
func (h *Handler) newTwoFactor(cfg Config) (*secondfactor.Step, error) {
	step := &secondfactor.Step{Users: cfg.Adapter, Theme: cfg.Theme, SignedIn: cfg.Events.SignIn, Host: host{h},
		Changed: func(ctx context.Context, userID string, c twofactor.Change) { h.self.TwoFactorEvent(ctx, userID, c) }}
	tf := cfg.TwoFactor
	if !tf.Enabled {
		return step, nil
	}
	store, ok := cfg.Adapter.(twofactor.Store)
	if !ok || !adapter.Supports[twofactor.Store](cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Field: "TwoFactor.Enabled", Err: errors.New("two-factor sign-in needs an Adapter that is a twofactor.Store (the built-in adapters are)")}
	}
	svc, err := twofactor.New(twofactor.Config{TOTP: twofactor.TOTP{Issuer: cmp.Or(tf.Issuer, "Gatehouse")}, Secret: cfg.Secret, Store: store})
	if err != nil {
		return nil, &ConfigError{Field: "TwoFactor", Err: err}
	}
	step.Service, step.PerPending, step.PerUser = svc, tf.PerPending, tf.PerUser
	if step.PerPending == nil {
		step.PerPending = limit.NewMemory(5, twofactor.PendingMaxAge)
	}
	if step.PerUser == nil {
		step.PerUser = limit.NewMemory(10, 15*time.Minute)
	}
	return step, nil
}

// CSRFOf returns the browser's CSRF token from its cookie, "" for none.
func (s host) CSRFOf(r *http.Request) string {
	return s.h.csrf.Token(sessioncookie.Value(r, s.h.baseFor(r).cookies.CSRF))
}

// IssueSession makes the session of a sign-in completed by a later step.
func (s host) IssueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) error {
	return s.h.issueSession(ctx, w, r, s.h.baseFor(r), user, res, false)
}
