package gatehouse

// Two-factor sign-in, top to bottom. The codes, the sealed pending state
// and their storage are package twofactor's; this file is the routes.
//
//  1. The first factor (an OAuth callback, an e-mail link, credentials)
//     ends in finishSignIn, which calls askSecondFactor: for a user with
//     two-factor sign-in on it makes no session, but seals a pending
//     sign-in into a cookie, bound to this browser's CSRF token, and
//     sends the browser to GET {base}/two-factor. A passkey is two
//     factors in itself (possession and the device's user verification)
//     and skips this step; so does a second sign-in by the user the
//     browser is already signed in as (linking another account).
//  2. POST {base}/two-factor {csrfToken, code}: the pending cookie is
//     opened (intact, under 5 minutes old, this browser's), the attempt
//     is counted per pending sign-in and per user before the code is
//     checked, and a TOTP code or a backup code makes the session.
//
// The settings, for the signed-in user: GET {base}/two-factor/setup (a
// page, or JSON {enabled, backupCodesLeft}), POST .../enroll (a new
// secret as a QR code), POST .../confirm {code} (turns it on; answers the
// ten backup codes, once), POST .../backup-codes {code} (new ones) and
// POST .../disable {code}. Regenerating and turning off need a current
// code (or a backup code): the session cookie alone, stolen, cannot
// weaken the account.

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
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

// twoFactorRuntime is the handler's two-factor state: nil when off.
type twoFactorRuntime struct {
	svc                 *twofactor.Service
	perPending, perUser limit.Limiter
}

// newTwoFactor checks cfg.TwoFactor and returns its runtime, nil when off.
func newTwoFactor(cfg Config) (*twoFactorRuntime, error) {
	tf := cfg.TwoFactor
	if !tf.Enabled {
		return nil, nil
	}
	store, ok := cfg.Adapter.(twofactor.Store)
	if !ok || !adapter.Supports[twofactor.Store](cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Field: "TwoFactor.Enabled", Err: errors.New("two-factor sign-in needs an Adapter that is a twofactor.Store (the built-in adapters are)")}
	}
	svc, err := twofactor.New(twofactor.Config{TOTP: twofactor.TOTP{Issuer: cmp.Or(tf.Issuer, "Gatehouse")}, Secret: cfg.Secret, Store: store})
	if err != nil {
		return nil, &ConfigError{Field: "TwoFactor", Err: err}
	}
	rt := &twoFactorRuntime{svc: svc, perPending: tf.PerPending, perUser: tf.PerUser}
	if rt.perPending == nil {
		rt.perPending = limit.NewMemory(5, twofactor.PendingMaxAge)
	}
	if rt.perUser == nil {
		rt.perUser = limit.NewMemory(10, 15*time.Minute)
	}
	return rt, nil
}

// askSecondFactor is step 1: for a user with two-factor sign-in on, it
// sends the browser to the code form instead of making a session, and
// reports true.
func (h *Handler) askSecondFactor(ctx context.Context, w http.ResponseWriter, r *http.Request, b *base, user profile.User, res signin.Result) (bool, error) {
	tf := h.twoFactor
	if tf == nil || res.UserVerified {
		return false, nil
	}
	prov := res.Account.Provider
	st, err := tf.svc.Status(ctx, user.ID)
	if err != nil {
		return false, autherr.New(AdapterError, "adapter", prov, "two_factor", err)
	}
	if !st.Enabled {
		return false, nil
	}
	if current, err := h.currentUserID(ctx, r, b); err == nil && current == user.ID {
		return false, nil // signed in as this user already, with both factors
	}
	sealed, _, err := tf.svc.StartPending(twofactor.Pending{UserID: user.ID, Provider: prov, SID: res.ProviderSID()}, h.csrfToken(w, r, b))
	if err != nil {
		return false, autherr.New(Configuration, "two_factor", prov, "two_factor", err)
	}
	b.cookies.Set(w, b.cookies.TwoFactor, sealed, time.Now().Add(twofactor.PendingMaxAge))
	if res.CallbackURL != "" { // a form's callbackUrl: keep it for step 2
		b.cookies.Set(w, b.cookies.CallbackURL, h.callbackURL(b, res.CallbackURL, r), time.Time{})
	}
	httpx.Redirect(w, r, b.url("two-factor"))
	return true, nil
}

// twoFactorPage answers GET {base}/two-factor: the code form, for a
// browser with a pending sign-in.
func (h *Handler) twoFactorPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.twoFactor == nil || sessioncookie.Value(r, b.cookies.TwoFactor) == "" {
		httpx.Redirect(w, r, b.url("signin"))
		return
	}
	h.render(w, http.StatusOK, h.challengePage(w, r, b, ""))
}

func (h *Handler) challengePage(w http.ResponseWriter, r *http.Request, b *base, msg string) pages.TwoFactorChallenge {
	return pages.TwoFactorChallenge{Theme: h.cfg.Theme, CSRFToken: h.csrfToken(w, r, b), ActionURL: b.url("two-factor"), Error: msg, SignInURL: b.url("signin")}
}

// twoFactorVerify is step 2: POST {base}/two-factor {csrfToken, code}.
func (h *Handler) twoFactorVerify(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	tf := h.twoFactor
	if tf == nil {
		httpx.Redirect(w, r, b.url("signin"))
		return
	}
	if h.rateLimited(w, r, b, "two-factor") {
		return
	}
	form, e := h.checkPost(r, b, "two_factor")
	if e != nil {
		h.fail(w, r, b, e)
		return
	}
	failed := func(code string, err error) {
		b.cookies.Clear(w, b.cookies.TwoFactor)
		h.fail(w, r, b, autherr.New(TwoFactorFailed, code, "", "two_factor", err))
	}
	// The pending sign-in: intact, fresh, and bound to this browser's CSRF
	// token (a value planted from another browser opens with a mismatch).
	p, err := tf.svc.OpenPending(sessioncookie.Value(r, b.cookies.TwoFactor), h.csrf.Token(sessioncookie.Value(r, b.cookies.CSRF)))
	switch {
	case errors.Is(err, twofactor.ErrExpired):
		failed("two_factor_expired", err)
		return
	case err != nil:
		failed("two_factor_invalid", err)
		return
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	// Counted before the code is checked (limit.ReserveAll): N concurrent
	// guesses get at most the limit through.
	pending := limit.Attempt{Limiter: tf.perPending, Key: "2fa-pending:" + p.ID}
	perUser := limit.Attempt{Limiter: tf.perUser, Key: "2fa-user:" + p.UserID}
	wait, err := limit.ReserveAll(ctx, pending, perUser)
	if err != nil {
		wait = time.Minute // fail closed
	}
	if wait > 0 {
		b.cookies.Clear(w, b.cookies.TwoFactor) // this pending sign-in is spent
		h.tooManyAttempts(w, r, b, p.Provider, wait)
		return
	}
	method, err := tf.svc.Verify(ctx, p.UserID, form.Get("code"))
	if err != nil {
		if !errors.Is(err, twofactor.ErrInvalidCode) && !errors.Is(err, twofactor.ErrReplayed) {
			h.fail(w, r, b, autherr.New(AdapterError, "adapter", p.Provider, "two_factor", err))
			return
		}
		h.self.TwoFactorEvent(ctx, p.UserID, TwoFactorCodeRefused)
		h.codeRefused(w, r, b, h.challengePage(w, r, b, selfservice.WrongCode))
		return
	}
	_ = tf.perUser.Reset(ctx, perUser.Key)
	b.cookies.Clear(w, b.cookies.TwoFactor)
	stored, err := h.cfg.Adapter.GetUser(ctx, p.UserID)
	if err != nil {
		h.fail(w, r, b, autherr.New(AdapterError, "adapter", p.Provider, "two_factor", err))
		return
	}
	user := accountlink.ToProfile(stored)
	if method == twofactor.MethodBackup {
		h.self.TwoFactorEvent(ctx, p.UserID, TwoFactorBackupUsed)
	}
	// The session, as finishSignIn would have made it after the first
	// factor, with the provider's session id for back-channel logout (the
	// JWT callback sees the provider only: the first factor's tokens and
	// profile were not kept).
	res := signin.Result{User: user, Account: &account.Account{Provider: p.Provider}, SID: p.SID}
	if err := h.issueSession(ctx, w, r, b, user, res, false); err != nil {
		h.fail(w, r, b, autherr.Wrap(err, AdapterError, "adapter", p.Provider, "session"))
		return
	}
	if ev := h.cfg.Events.SignIn; ev != nil {
		ev(r.Context(), user, res.Account, false)
	}
	httpx.Redirect(w, r, h.callbackURL(b, sessioncookie.Value(r, b.cookies.CallbackURL), r))
}

// codeRefused answers a wrong code: the form again, or JSON.
func (h *Handler) codeRefused(w http.ResponseWriter, r *http.Request, b *base, page any) {
	if selfservice.WantsHTML(r) {
		h.render(w, http.StatusUnauthorized, page)
		return
	}
	httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_code"})
}
