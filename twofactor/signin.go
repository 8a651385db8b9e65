package twofactor

import (
	"cmp"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/limit"
)

// SignIn turns two-factor sign-in on, as gatehouse.Config.TwoFactor:
// codes from an authenticator app (TOTP, RFC 6238) and single-use backup
// codes. Users turn it on for themselves at {base}/two-factor/setup. It
// needs an Adapter that is also a Store (the built-in adapters are).
//
//	gatehouse.Config{TwoFactor: twofactor.SignIn{Issuer: "Example"}, …}
type SignIn struct {
	// Issuer names the site in authenticator apps. Default: "Gatehouse".
	Issuer string
	// PerPending limits code attempts per pending sign-in (default 5 in
	// its 5 minutes), PerUser failed codes per user across pending
	// sign-ins and the settings routes (default 10 per 15 minutes): a
	// 6-digit code has three good values at a time, so unlimited guessing
	// would find one. Several processes share them through Redis
	// (redislimit), as gatehouse.Config.RateLimit. Nil: the handler's
	// Config.Limits makes them.
	PerPending, PerUser limit.Limiter
}

var _ twofactorflow.Feature = SignIn{}

// NewTwoFactor checks c against the handler's configuration and returns
// the flow: the second step of sign-ins and the settings routes, with
// their attempt limits. gatehouse.New calls it; applications do not.
func (c SignIn) NewTwoFactor(e *twofactorflow.Env) (twofactorflow.Flow, error) {
	store, ok := e.Users.(Store)
	if !ok || !adapter.Supports[Store](e.Users) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &autherr.ConfigError{Field: "TwoFactor", Err: errors.New("two-factor sign-in needs an Adapter that is a twofactor.Store (the built-in adapters are)")}
	}
	svc, err := New(Config{TOTP: TOTP{Issuer: cmp.Or(c.Issuer, "Gatehouse")}, Secret: e.Secret, Store: store})
	if err != nil {
		return nil, &autherr.ConfigError{Field: "TwoFactor", Err: err}
	}
	return twofactorflow.New(e, svc, e.Limiter(c.PerPending, "two-factor-per-pending", 5, PendingMaxAge),
		e.Limiter(c.PerUser, "two-factor-per-user", 10, 15*time.Minute)), nil
}
