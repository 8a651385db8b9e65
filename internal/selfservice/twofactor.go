package selfservice

import (
	"cmp"
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// event logs c and tells Events.TwoFactor.
func (s *twoFactorRoutes) event(ctx context.Context, userID string, c twofactorcore.Change) {
	ReportTwoFactor(s.cfg.Adapter, s.cfg.Logger, s.cfg.Events.TwoFactor)(ctx, userID, c)
}

// ReportTwoFactor returns the function that logs a change to a user's
// two-factor sign-in and tells ev (Events.TwoFactor, nil for none) of it
// with the stored user: the settings routes' and the sign-in's second
// step's.
func ReportTwoFactor(a adapter.Adapter, logger *slog.Logger, ev func(ctx context.Context, user profile.User, c twofactorcore.Change)) func(ctx context.Context, userID string, c twofactorcore.Change) {
	return func(ctx context.Context, userID string, c twofactorcore.Change) {
		logger.Info("gatehouse: two-factor "+string(c), "step", "two_factor", "user", userID)
		if ev == nil {
			return
		}
		if u, err := a.GetUser(ctx, userID); err == nil {
			ev(ctx, accountlink.ToProfile(u), c)
		}
	}
}

// WrongCode is the catalogue key (pages.Text) of what a refused code is
// told, whatever the reason (wrong, replayed, malformed): the page says no
// more than that.
const WrongCode = twofactorcore.WrongCode

// TwoFactor returns the handler of GET {base}/two-factor/setup and POST
// {base}/two-factor/{enroll,confirm,backup-codes,disable}: the signed-in
// user's two-factor settings, kept by svc, with the codes they take
// counted per user by perUser (shared with the sign-in's second step).
// Making new backup codes and turning two-factor sign-in off take a
// current code: a stolen session cookie alone cannot weaken the account.
//
// Two-factor sign-in's flow (internal/twofactorflow) calls it, not the
// Handler: a program that does not turn two-factor sign-in on links none
// of these routes.
func (s *Routes) TwoFactor(svc twofactorcore.Settings, perUser limit.Limiter) http.HandlerFunc {
	return (&twoFactorRoutes{Routes: s, svc: svc, perUser: perUser}).serve
}

// twoFactorRoutes are the two-factor settings routes.
type twoFactorRoutes struct {
	*Routes
	svc     twofactorcore.Settings
	perUser limit.Limiter
}

func (s *twoFactorRoutes) serve(w http.ResponseWriter, r *http.Request) {
	action := r.PathValue("action")
	if r.Method == http.MethodPost && action != "enroll" && action != "confirm" && action != "backup-codes" && action != "disable" {
		if s.cfg.NotFound != nil {
			s.cfg.NotFound(w, r) // as the router's unknown routes
		} else {
			httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "Not found."})
		}
		return
	}
	var form url.Values
	switch {
	case r.Method != http.MethodPost:
	case httpx.AcceptsHTML(r):
		again := func(u signedIn) {
			ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
			defer cancel()
			page, _, err := s.twoFactorAction(ctx, "", u.id, "")
			if err != nil {
				httpx.StoreUnavailable(w)
				return
			}
			page.Error = "selfservice.formExpired"
			s.renderSetup(w, r, page, http.StatusForbidden)
		}
		f, ok := s.formOK(w, r, "two-factor/setup", again)
		if !ok {
			return
		}
		form = f
	default:
		f, ok := s.post(w, r)
		if !ok {
			return
		}
		form = f
	}
	u, ok := s.pageOwner(w, r, "two-factor", "setup")
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	var page setupPage
	var status int
	var err error
	if (action == "enroll" || action == "confirm") && !s.fresh(u) {
		// Turning it on with a stolen session cookie would lock the user
		// out: it takes a recent sign-in.
		var st twofactorcore.Status
		st, err = s.svc.Status(ctx, u.id)
		page.Enabled, page.BackupCodesLeft = st.Enabled, st.BackupCodesLeft
		page.Error, page.code, page.SignInURL = StaleMessage, "fresh_sign_in", s.signInAgain(r, "two-factor", "setup")
		status = http.StatusForbidden
	} else {
		page, status, err = s.twoFactorAction(ctx, action, u.id, form.Get("code"))
	}
	if err != nil {
		s.cfg.Logger.Error("gatehouse: two-factor settings failed", "step", "two_factor", "err", err)
		httpx.StoreUnavailable(w)
		return
	}
	if !httpx.AcceptsHTML(r) {
		httpx.WriteJSON(w, status, page.json())
		return
	}
	s.renderSetup(w, r, page, status)
}

// renderSetup renders the two-factor settings page.
func (s *twoFactorRoutes) renderSetup(w http.ResponseWriter, r *http.Request, page setupPage, status int) {
	// Error and Message are catalogue keys until here (twoFactorAction).
	if page.Error != "" {
		page.Error = s.host.Text(r, page.Error, page.args...)
	}
	if page.Message != "" {
		page.Message = s.host.Text(r, page.Message)
	}
	page.Theme, page.CSRFToken, page.HomeURL = s.cfg.Theme, s.host.CSRFToken(w, r), s.host.Origin(r)+"/"
	page.EnrollURL, page.ConfirmURL = s.host.URL(r, "two-factor", "enroll"), s.host.URL(r, "two-factor", "confirm")
	page.BackupCodesURL, page.DisableURL = s.host.URL(r, "two-factor", "backup-codes"), s.host.URL(r, "two-factor", "disable")
	s.host.Render(w, r, status, page.TwoFactorSetup)
}

// setupPage is the settings page with its JSON form.
type setupPage struct {
	pages.TwoFactorSetup
	uri  string // the otpauth:// URI while enrolling
	code string // the JSON error code with Error
	args []any  // Error's arguments: Error and Message are catalogue keys until renderSetup
}

func (p setupPage) json() any {
	out := map[string]any{"enabled": p.Enabled, "backupCodesLeft": p.BackupCodesLeft}
	if p.uri != "" {
		out["otpauthUri"], out["secret"], out["qrCode"] = p.uri, p.Secret, string(p.QRCode)
	}
	if p.BackupCodes != nil {
		out["backupCodes"] = p.BackupCodes
	}
	if p.code != "" {
		out["error"] = p.code
	}
	return out
}

// twoFactorAction runs one settings action ("" shows the state) and
// returns the page to answer. A refused code is a page with Error and
// 401; err is the store's failure.
func (s *twoFactorRoutes) twoFactorAction(ctx context.Context, action, userID, code string) (setupPage, int, error) {
	svc := s.svc
	var p setupPage
	refused := func() (setupPage, int, error) {
		s.event(ctx, userID, twofactorcore.CodeRefused)
		st, err := svc.Status(ctx, userID)
		p.Enabled, p.BackupCodesLeft, p.Error, p.code = st.Enabled, st.BackupCodesLeft, WrongCode, "invalid_code"
		return p, http.StatusUnauthorized, err
	}
	// Enrolling or confirming again when it is on is the user's mistake
	// (a second tab, a double click): 409, not a server error.
	alreadyOn := func(st twofactorcore.Status) (setupPage, int, error) {
		p.Enabled, p.BackupCodesLeft, p.Error, p.code = true, st.BackupCodesLeft, "selfservice.alreadyOn", "already_enabled"
		return p, http.StatusConflict, nil
	}
	// The actions that take a code count it per user, as the sign-in does.
	if action != "" && action != "enroll" {
		key := "2fa-user:" + userID
		if wait, err := s.perUser.Reserve(ctx, key); err != nil || wait > 0 {
			p.Error, p.code, p.args = "selfservice.tooManyCodes", "too_many_attempts", []any{max(1, int(wait.Minutes()))}
			return p, http.StatusTooManyRequests, nil
		}
	}
	switch action {
	case "enroll":
		st, err := svc.Status(ctx, userID)
		if err != nil {
			return p, 0, err
		}
		if st.Enabled {
			return alreadyOn(st)
		}
		u, err := s.cfg.Adapter.GetUser(ctx, userID)
		if err != nil {
			return p, 0, err
		}
		e, err := svc.Enroll(ctx, userID, cmp.Or(u.Email, u.Name))
		if err != nil {
			return p, 0, err
		}
		p.QRCode, p.Secret, p.uri = template.URL(e.QRDataURL()), e.Secret, e.URI // #nosec: a data: URL we made
		return p, http.StatusOK, nil
	case "confirm":
		codes, err := svc.Confirm(ctx, userID, code)
		if errors.Is(err, twofactorcore.ErrAlreadyEnabled) { // a second tab, a double click
			st, err := svc.Status(ctx, userID)
			if err != nil {
				return p, 0, err
			}
			return alreadyOn(st)
		}
		if errors.Is(err, twofactorcore.ErrInvalidCode) || errors.Is(err, twofactorcore.ErrNotEnrolled) || errors.Is(err, twofactorcore.ErrReplayed) {
			p, status, err := refused()
			p.Error = "selfservice.wrongCodeSetup" // WrongCode, and: set up the app again
			return p, status, err
		}
		if err != nil {
			return p, 0, err
		}
		_ = s.perUser.Reset(ctx, "2fa-user:"+userID)
		s.event(ctx, userID, twofactorcore.Enabled)
		p.Enabled, p.BackupCodes, p.Message = true, codes, "selfservice.nowOn"
		return p, http.StatusOK, nil
	case "backup-codes", "disable":
		if _, err := svc.Verify(ctx, userID, code); err != nil {
			if errors.Is(err, twofactorcore.ErrInvalidCode) || errors.Is(err, twofactorcore.ErrReplayed) || errors.Is(err, twofactorcore.ErrNotEnrolled) {
				return refused()
			}
			return p, 0, err
		}
		_ = s.perUser.Reset(ctx, "2fa-user:"+userID)
		if action == "disable" {
			if err := svc.Disable(ctx, userID); err != nil {
				return p, 0, err
			}
			s.event(ctx, userID, twofactorcore.Disabled)
			p.Message = "selfservice.nowOff"
			return p, http.StatusOK, nil
		}
		codes, err := svc.RegenerateBackupCodes(ctx, userID)
		if err != nil {
			return p, 0, err
		}
		s.event(ctx, userID, twofactorcore.BackupCodesRegenerated)
		p.Enabled, p.BackupCodes, p.Message = true, codes, "selfservice.oldCodes"
		return p, http.StatusOK, nil
	}
	st, err := svc.Status(ctx, userID)
	p.Enabled, p.BackupCodesLeft = st.Enabled, st.BackupCodesLeft
	return p, http.StatusOK, err
}
