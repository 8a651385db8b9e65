// Package twofactorflow is the second step of a two-factor sign-in, top
// to bottom. The codes, the sealed pending state and their storage are
// package twofactor's; this package is the step's routes.
//
//  1. The first factor (an OAuth callback, an e-mail link, credentials)
//     ends in internal/finish's FinishSignIn, which calls Ask: for a user with
//     two-factor sign-in on it makes no session, but seals a pending
//     sign-in into a cookie, bound to this browser's CSRF token, and
//     sends the browser to GET {base}/two-factor (Page). A passkey is two
//     factors in itself (possession and the device's user verification)
//     and skips this step; so does a second sign-in by the user the
//     browser is already signed in as (linking another account).
//  2. POST {base}/two-factor {csrfToken, code} (Verify): the pending
//     cookie is opened (intact, under 5 minutes old, this browser's), the
//     attempt is counted per pending sign-in and per user before the code
//     is checked, and a TOTP code or a backup code makes the session, once,
//     unless the user's password was reset or changed since the first
//     factor (the store's record of the pending sign-in is bound to it).
//
// The settings routes (enrol, confirm, backup codes, disable) are
// internal/selfservice's (Routes.TwoFactor); Step.Settings serves them.
//
// The Handler knows two-factor sign-in by Feature and Flow alone:
// twofactor.SignIn, which the application sets as Config.TwoFactor, builds
// the Step. A program that does not turn two-factor sign-in on links none
// of this package's code, nor the settings routes and their pages.
package twofactorflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Host is what the step needs of the Handler, per request. The
// *finish.Site implements it (internal/finish, and internal/site's
// Site, which it embeds), where each method is documented.
type Host interface {
	CSRFToken(w http.ResponseWriter, r *http.Request) string
	// CSRFOf returns the browser's CSRF token from its cookie, "" for
	// none; it sets no cookie.
	CSRFOf(r *http.Request) string
	CheckPost(r *http.Request, step string) (url.Values, *autherr.Error)
	Cookies(r *http.Request) cookies.Names
	CallbackURL(r *http.Request, raw string) string
	URL(r *http.Request, parts ...string) string
	Render(w http.ResponseWriter, r *http.Request, status int, page any)
	Text(r *http.Request, key string, args ...any) string
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	RateLimited(w http.ResponseWriter, r *http.Request, provider string) bool
	TooManyAttempts(w http.ResponseWriter, r *http.Request, provider string, wait time.Duration)
	// IssueSession makes the session of a completed sign-in.
	IssueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) error
}

// Feature turns two-factor sign-in on, as gatehouse.Config.TwoFactor:
// twofactor.SignIn is the one implementation.
type Feature interface {
	// NewTwoFactor checks the configuration against the Handler's and
	// returns the flow. An error is a *autherr.ConfigError. gatehouse.New
	// calls it; applications do not.
	NewTwoFactor(e *Env) (Flow, error)
}

// Env is what two-factor sign-in is built with: the Handler's adapter,
// secrets, limits and events, and the Host its routes answer through.
type Env struct {
	// Users is Config.Adapter; Secret is Config.Secret.
	Users  adapter.Adapter
	Secret []string
	// Limiter returns l when it is set, and otherwise the limit called
	// name that Config.Limits makes, with max attempts per key within
	// window.
	Limiter func(l limit.Limiter, name string, max int, window time.Duration) limit.Limiter
	Theme   pages.Theme
	Logger  *slog.Logger
	// SignedIn is Events.SignIn and Changed Events.TwoFactor; nil when
	// not set.
	SignedIn func(ctx context.Context, u profile.User, a *account.Account, isNew bool)
	Changed  func(ctx context.Context, user profile.User, c twofactorcore.Change)
	Host     Host
}

// Flow is two-factor sign-in as the Handler uses it (a *Step).
type Flow interface {
	// Ask is Step.Ask: internal/finish's SecondStep.
	Ask(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) (bool, error)
	// Page and Verify answer GET and POST {base}/two-factor.
	Page(w http.ResponseWriter, r *http.Request)
	Verify(w http.ResponseWriter, r *http.Request)
	// Settings returns the handler of GET {base}/two-factor/setup and
	// POST {base}/two-factor/{action}, served through self.
	Settings(self *selfservice.Routes) http.HandlerFunc
}

// New returns the step of svc, whose code attempts perPending and
// perUser count, built with e.
func New(e *Env, svc twofactorcore.Service, perPending, perUser limit.Limiter) *Step {
	AddMessages()
	selfservice.AddMessages() // the settings routes' notices, and the wrong code's alert
	return &Step{Service: svc, PerPending: perPending, PerUser: perUser, Users: e.Users, Theme: e.Theme,
		SignedIn: e.SignedIn, Host: e.Host, Changed: selfservice.ReportTwoFactor(e.Users, e.Logger, e.Changed)}
}

// Settings returns the settings routes of s's service, counting codes
// per user as the step does (selfservice.Routes.TwoFactor).
func (s *Step) Settings(self *selfservice.Routes) http.HandlerFunc {
	return self.TwoFactor(s.Service, s.PerUser)
}

// Step is the second step.
type Step struct {
	Service             twofactorcore.Service
	PerPending, PerUser limit.Limiter
	Users               adapter.Adapter
	Theme               pages.Theme
	// Changed reports a two-factor change (a refused code, a backup code
	// used) to the logs and Events.TwoFactor.
	Changed func(ctx context.Context, userID string, c twofactorcore.Change)
	// SignedIn is Events.SignIn, nil when not set.
	SignedIn func(ctx context.Context, u profile.User, a *account.Account, isNew bool)
	Host     Host
}

// Ask is step 1: for a user with two-factor sign-in on, it sends the
// browser to the code form instead of making a session, and reports true.
func (s *Step) Ask(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) (bool, error) {
	if res.UserVerified {
		return false, nil
	}
	prov := res.Account.Provider
	st, err := s.Service.Status(ctx, user.ID)
	if err != nil {
		return false, autherr.New(autherr.AdapterError, "adapter", prov, "two_factor", err)
	}
	if !st.Enabled {
		return false, nil
	}
	if res.SignedIn == user.ID {
		return false, nil // signed in as this user already, with both factors
	}
	sealed, p, err := s.Service.StartPending(twofactorcore.Pending{UserID: user.ID, Provider: prov, SID: res.ProviderSID()}, s.Host.CSRFToken(w, r))
	if err != nil {
		return false, autherr.New(autherr.Configuration, "two_factor", prov, "two_factor", err)
	}
	// The cookie alone could be copied and used again after the user
	// finished: the pending sign-in is also recorded in the store, where
	// Verify uses it up (single use on every instance). The record is
	// bound to the user's password as it is now: a reset or change
	// before the code makes it unusable.
	cred, err := s.credential(ctx, user.ID)
	if err != nil {
		return false, autherr.New(autherr.AdapterError, "adapter", prov, "two_factor", err)
	}
	if err := s.Users.CreateVerificationToken(ctx, pendingRecord(p, cred, time.Now().Add(twofactorcore.PendingMaxAge))); err != nil {
		return false, autherr.New(autherr.AdapterError, "adapter", prov, "two_factor", err)
	}
	c := s.Host.Cookies(r)
	c.Set(w, c.TwoFactor, sealed, time.Now().Add(twofactorcore.PendingMaxAge))
	if res.CallbackURL != "" { // a form's callbackUrl: keep it for step 2
		c.Set(w, c.CallbackURL, s.Host.CallbackURL(r, res.CallbackURL), time.Time{})
	}
	httpx.Redirect(w, r, s.Host.URL(r, "two-factor"))
	return true, nil
}

// Page answers GET {base}/two-factor: the code form, for a browser with a
// pending sign-in.
func (s *Step) Page(w http.ResponseWriter, r *http.Request) {
	if cookies.Value(r, s.Host.Cookies(r).TwoFactor) == "" {
		httpx.Redirect(w, r, s.Host.URL(r, "signin"))
		return
	}
	s.Host.Render(w, r, http.StatusOK, s.challenge(w, r, ""))
}

func (s *Step) challenge(w http.ResponseWriter, r *http.Request, msg string) pages.TwoFactorChallenge {
	return pages.TwoFactorChallenge{Theme: s.Theme, CSRFToken: s.Host.CSRFToken(w, r), ActionURL: s.Host.URL(r, "two-factor"), Error: msg, SignInURL: s.Host.URL(r, "signin")}
}

// Verify is step 2: POST {base}/two-factor {csrfToken, code}.
func (s *Step) Verify(w http.ResponseWriter, r *http.Request) {
	h := s.Host
	if h.RateLimited(w, r, "two-factor") {
		return
	}
	form, e := h.CheckPost(r, "two_factor")
	if e != nil {
		h.Fail(w, r, e)
		return
	}
	c := h.Cookies(r)
	failed := func(code string, err error) {
		c.Clear(w, c.TwoFactor)
		h.Fail(w, r, autherr.New(autherr.TwoFactorFailed, code, "", "two_factor", err))
	}
	// The pending sign-in: intact, fresh, and bound to this browser's CSRF
	// token (a value planted from another browser opens with a mismatch).
	p, err := s.Service.OpenPending(cookies.Value(r, c.TwoFactor), h.CSRFOf(r))
	switch {
	case errors.Is(err, twofactorcore.ErrExpired):
		failed("two_factor_expired", err)
		return
	case err != nil:
		failed("two_factor_invalid", err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	// Counted before the code is checked (limit.ReserveAll): N concurrent
	// guesses get at most the limit through.
	pending := limit.Attempt{Limiter: s.PerPending, Key: "2fa-pending:" + p.ID}
	perUser := limit.Attempt{Limiter: s.PerUser, Key: "2fa-user:" + p.UserID}
	wait, err := limit.ReserveAll(ctx, pending, perUser)
	if err != nil {
		wait = time.Minute // fail closed
	}
	if wait > 0 {
		// This pending sign-in is spent, for every copy of its cookie.
		c.Clear(w, c.TwoFactor)
		s.end(ctx, p)
		h.TooManyAttempts(w, r, p.Provider, wait)
		return
	}
	method, err := s.Service.Verify(ctx, p.UserID, form.Get("code"))
	if errors.Is(err, twofactorcore.ErrNotEnrolled) {
		// Two-factor sign-in was turned off since the first factor (in
		// another tab, on another device): this pending sign-in cannot
		// finish, and is no store failure. Signing in again takes one
		// factor.
		c.Clear(w, c.TwoFactor)
		s.end(ctx, p)
		h.Fail(w, r, autherr.New(autherr.TwoFactorFailed, "two_factor_off", p.Provider, "two_factor", err))
		return
	}
	if err != nil {
		if !errors.Is(err, twofactorcore.ErrInvalidCode) && !errors.Is(err, twofactorcore.ErrReplayed) {
			h.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", p.Provider, "two_factor", err))
			return
		}
		s.Changed(ctx, p.UserID, twofactorcore.CodeRefused)
		s.codeRefused(w, r, s.challenge(w, r, s.Host.Text(r, twofactorcore.WrongCode)))
		return
	}
	_ = s.PerUser.Reset(ctx, perUser.Key)
	c.Clear(w, c.TwoFactor)
	// Use the pending sign-in up: of two copies of the cookie, each with
	// a good code, one makes a session; a copy used after the user
	// finished makes none, nor one started before the user's password
	// was reset or changed.
	rec, err := s.end(ctx, p)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		h.Fail(w, r, autherr.New(autherr.TwoFactorFailed, "two_factor_used", p.Provider, "two_factor", errors.New("the pending sign-in was used, ended by too many attempts, or started before a new password was set")))
		return
	case err != nil:
		h.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", p.Provider, "two_factor", err))
		return
	case time.Now().After(rec.Expires):
		h.Fail(w, r, autherr.New(autherr.TwoFactorFailed, "two_factor_expired", p.Provider, "two_factor", twofactorcore.ErrExpired))
		return
	}
	stored, err := s.Users.GetUser(ctx, p.UserID)
	if err != nil {
		h.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", p.Provider, "two_factor", err))
		return
	}
	user := accountlink.ToProfile(stored)
	if method == twofactorcore.MethodBackup {
		s.Changed(ctx, p.UserID, twofactorcore.BackupCodeUsed)
	}
	// The session, as finish.Finisher would have made it after the first
	// factor, with the provider's session id for back-channel logout (the
	// JWT callback sees the provider only: the first factor's tokens and
	// profile were not kept).
	// It began with the first factor: a revocation of the user's sessions
	// stored since (revoke-sessions, a new password) refuses it.
	res := signin.Result{User: user, Account: &account.Account{Provider: p.Provider}, SID: p.SID, Began: began(p, rec)}
	if err := h.IssueSession(ctx, w, r, user, res); err != nil {
		h.Fail(w, r, autherr.Wrap(err, autherr.AdapterError, "adapter", p.Provider, "session"))
		return
	}
	if s.SignedIn != nil {
		s.SignedIn(r.Context(), user, res.Account, false)
	}
	target := h.CallbackURL(r, cookies.Value(r, c.CallbackURL))
	c.ClearSent(w, r, c.CallbackURL) // its sign-in has finished (finish.Finisher)
	httpx.Redirect(w, r, target)
}

// began returns when the pending sign-in p, whose store record is rec,
// was sealed. The cookie keeps p.Issued to the second only, so the seal
// was within the second after it; the record's time (Ask writes it right
// after sealing p, its expiry PendingMaxAge later), kept to the
// microsecond by the built-in stores, says where when it falls in that
// second. Issued alone would refuse a sign-in whose first factor passed
// in the same second as a revocation, but after it. A record time
// outside that second (a service with another pending lifetime) is not
// trusted: Issued, the earlier, refuses rather than admits.
func began(p twofactorcore.Pending, rec adapter.VerificationToken) time.Time {
	if at := rec.Expires.Add(-twofactorcore.PendingMaxAge); at.After(p.Issued) && at.Before(p.Issued.Add(time.Second)) {
		return at
	}
	return p.Issued
}

// codeRefused answers a wrong code: the form again, or JSON.
func (s *Step) codeRefused(w http.ResponseWriter, r *http.Request, page any) {
	if httpx.AcceptsHTML(r) {
		s.Host.Render(w, r, http.StatusUnauthorized, page)
		return
	}
	httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_code"})
}

// pendingIdentifier names the store's records of pending sign-ins among
// the verification tokens. E-mail links use an address as identifier,
// which always has an "@"; this has none.
const pendingIdentifier = "gatehouse:two-factor-pending"

// pendingRecord is the store's record of p: only a hash of its random id
// and of cred (Step.credential), as for every other token.
func pendingRecord(p twofactorcore.Pending, cred string, expires time.Time) adapter.VerificationToken {
	sum := sha256.Sum256([]byte(p.ID + "\x00" + cred))
	return adapter.VerificationToken{Identifier: pendingIdentifier, TokenHash: hex.EncodeToString(sum[:]), Expires: expires}
}

// credential is what a pending sign-in of userID is bound to besides its
// id: the user's password hash, "" for a user with no password (or a
// store that keeps none). A password reset or change replaces it, so the
// record of a pending sign-in started before is no longer found.
func (s *Step) credential(ctx context.Context, userID string) (string, error) {
	ps, ok := s.Users.(adapter.PasswordStore)
	if !ok {
		return "", nil
	}
	h, err := ps.PasswordHash(ctx, userID)
	if errors.Is(err, adapter.ErrNotFound) || errors.Is(err, errors.ErrUnsupported) {
		return "", nil
	}
	return h, err
}

// end uses p's record up, atomically: ErrNotFound when it was used (or
// never recorded, or the user's password changed since).
func (s *Step) end(ctx context.Context, p twofactorcore.Pending) (adapter.VerificationToken, error) {
	cred, err := s.credential(ctx, p.UserID)
	if err != nil {
		return adapter.VerificationToken{}, err
	}
	rec := pendingRecord(p, cred, time.Time{})
	return s.Users.UseVerificationToken(ctx, rec.Identifier, rec.TokenHash)
}
