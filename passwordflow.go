package gatehouse

// The password-accounts provider's routes; providers/passwordaccount does
// the work without HTTP. Under {base}, for provider id:
//
//	POST callback/{id}   email, password: sign in (the credentials flow,
//	                     with its attempt limits)
//	GET/POST {id}/sign-up   the form; email, password, name
//	GET  {id}/verify     ?token&email: confirms the address, signs in
//	GET/POST {id}/forgot    the form; email: mails a reset link
//	GET/POST {id}/reset     ?token&email shows the form without using the
//	                     link (mail scanners fetch links); the POST uses it
//	GET/POST {id}/change    currentPassword, newPassword: signed in only
//
// Every POST is same-origin with the CSRF token (checkPost). A browser
// (wantsHTML) gets pages; any other client JSON: {"ok":true,"code":…} or
// {"error":…,"code":…}. Sign-up and forgot answer the same for known and
// unknown addresses, and both count against the e-mail send limits.

import (
	"cmp"
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"path"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// passwordActions are the provider's own routes, {base}/{id}/{action}.
var passwordActions = []string{"sign-up", "verify", "forgot", "reset", "change"}

// passwordFlow is a password-accounts provider.
type passwordFlow struct {
	svc   *passwordaccount.Service
	cfg   passwordaccount.Config // prepared
	creds *credentials.Config    // the sign-in form and its attempt limits
}

// addPassword checks a password-accounts provider and returns its flow.
func (h *Handler) addPassword(c passwordaccount.Config) (flow, error) {
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	store, ok := h.cfg.Adapter.(passwordaccount.Store)
	if !ok || !adapter.Supports[adapter.PasswordStore](h.cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a password-accounts provider needs an Adapter that keeps password hashes (adapter.PasswordStore)"}
	}
	if h.cfg.URL == "" { // as for e-mail links (email.go)
		return nil, &ConfigError{Provider: c.ID, Field: "URL", Reason: "a password-accounts provider needs Config.URL (AUTH_URL): links must not take their host from the request"}
	}
	svc, err := passwordaccount.NewService(c, store, passwordaccount.Options{Secrets: h.cfg.Secret, Logger: h.cfg.Logger, CreateUser: h.cfg.Events.CreateUser})
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	f := &passwordFlow{svc: svc, cfg: svc.Config()}
	creds, err := credentials.Config{ID: c.ID, Name: c.Name, IdentifierField: "email",
		Fields: []credentials.Field{
			{Name: "email", Label: "Email", Type: "email", Autocomplete: "username", Required: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
		},
		PerIdentifierAndIP: f.cfg.PerIdentifierAndIP, PerIdentifier: f.cfg.PerIdentifier, PerIP: f.cfg.PerIP, ClientIP: f.cfg.ClientIP,
		Authorize: func(ctx context.Context, in map[string]string, r *http.Request) (*profile.User, error) {
			u, err := f.svc.SignIn(ctx, in["email"], in["password"])
			switch {
			case errors.Is(err, passwordaccount.ErrInvalidCredentials):
				return nil, credentials.ErrInvalid
			case errors.Is(err, passwordaccount.ErrUnverified):
				// Only the password's holder gets here: a new link.
				b := h.baseFor(r)
				f.svc.ResendVerification(ctx, u.Email, f.links(b, h.callbackURL(b, r.PostForm.Get("callbackUrl"), r)))
				return nil, err
			case err != nil:
				return nil, err
			}
			return &u, nil
		}}.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	f.creds = &creds
	return f, nil
}

func (f *passwordFlow) info() providers.Base { return f.cfg.ProviderBase() }

func (*passwordFlow) crossSiteCallback() bool { return false }

func (f *passwordFlow) addTo(page *pages.SignIn, p providers.AppProvider, b *base) {
	page.Password = append(page.Password, pages.PasswordForm{ID: p.ID, Name: p.Name, CallbackURL: p.CallbackURL,
		SignUpURL: b.url(p.ID, "sign-up"), ForgotURL: b.url(p.ID, "forgot")})
}

func (f *passwordFlow) form(path, csrf, callback string) template.HTML {
	return renderForm(credentialsFormTmpl, formData{Action: path + "/callback/" + f.cfg.ID, Name: f.cfg.Name, CSRF: csrf, Callback: callback, Fields: f.creds.Fields})
}

// signIn: the form posts to the callback, as a credentials form does.
func (*passwordFlow) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, _ url.Values) {
	httpx.Redirect(w, r, b.url("signin"))
}

// callback answers POST {base}/callback/{id}: the credentials sign-in,
// whose Authorize is the Service's, signing in the stored user.
func (f *passwordFlow) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	err := h.credentialsSignIn(w, r, b, f.creds, true)
	switch {
	case errors.Is(err, passwordaccount.ErrUnverified):
		h.fail(w, r, b, autherr.New(EmailUnverified, "unverified", f.cfg.ID, "authorize", err))
	case err != nil:
		h.fail(w, r, b, autherr.Wrap(err, CallbackRouteError, "authorize", f.cfg.ID, "authorize"))
	}
}

// links are the URLs the provider's messages point to.
func (f *passwordFlow) links(b *base, callback string) passwordaccount.Links {
	return passwordaccount.Links{Verify: b.url(f.cfg.ID, "verify"), Reset: b.url(f.cfg.ID, "reset"), Forgot: b.url(f.cfg.ID, "forgot"), CallbackURL: callback}
}

// passwordRoute answers {base}/{id}/{action}.
func (h *Handler) passwordRoute(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	f, ok := h.flows[r.PathValue("provider")].(*passwordFlow)
	if !ok {
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
		return
	}
	// The links and the reset form carry tokens.
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	if h.rateLimited(w, r, b, f.cfg.ID) {
		return
	}
	action := path.Base(r.URL.Path)
	if r.Method != http.MethodPost {
		if action == "verify" {
			f.verify(h, w, r, b)
			return
		}
		if action == "change" && !f.signedIn(h, w, r, b) {
			return
		}
		f.page(h, w, r, b, pages.PasswordKind(action), http.StatusOK, "", r.URL.Query())
		return
	}
	form, e := h.checkPost(r, b, "password")
	if e != nil {
		if selfservice.WantsHTML(r) {
			h.fail(w, r, b, e)
		} else {
			httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(e.Type), "code": e.Code})
		}
		return
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	switch action {
	case "sign-up", "forgot":
		if !f.sendLimits(ctx, h, w, r, b, form.Get("email")) {
			return
		}
		links := f.links(b, h.callbackURL(b, form.Get("callbackUrl"), r))
		if action == "sign-up" {
			err := f.svc.SignUp(ctx, form.Get("email"), form.Get("password"), form.Get("name"), links)
			f.answer(h, w, r, b, pages.PasswordSignUp, form, err, pages.Notice{Title: "Check your email",
				Message: "We sent a message to the address you gave. Follow its link to confirm the address, then sign in.",
				LinkURL: b.url("signin"), LinkText: "Back to sign in"}, "check_email")
			return
		}
		err := f.svc.Forgot(ctx, form.Get("email"), links)
		f.answer(h, w, r, b, pages.PasswordForgot, form, err, pages.Notice{Title: "Check your email",
			Message: "If an account has this address, we sent it a link to choose a new password. The link works once, for a short time.",
			LinkURL: b.url("signin"), LinkText: "Back to sign in"}, "check_email")
	case "reset":
		u, n, err := f.svc.Reset(ctx, form.Get("email"), form.Get("token"), form.Get("password"))
		if err == nil {
			// Signed out here too: the session was one of the user's.
			b.cookies.ClearChunked(w, r, b.cookies.Session)
			h.clearCookieCache(w, r, b)
			h.passwordEvents(r.Context(), h.cfg.Events.PasswordReset, u, n)
		}
		f.answer(h, w, r, b, pages.PasswordReset, form, err, pages.Notice{Title: "Password changed",
			Message: "Your new password is set, and every session of your account was signed out. Sign in with the new password.",
			LinkURL: b.url("signin"), LinkText: "Sign in"}, "password_reset")
	case "change":
		f.change(ctx, h, w, r, b, form)
	default:
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
	}
}

// sendLimits reserves a sign-up's or reset request's place in the send
// limits, per client address and per address typed (known or not, so the
// limits tell nothing), answering 429 past them. An address that does
// not parse is left to the Service, which refuses it.
func (f *passwordFlow) sendLimits(ctx context.Context, h *Handler, w http.ResponseWriter, r *http.Request, b *base, typed string) bool {
	addr, err := f.svc.Normalize(typed)
	if err != nil {
		return true
	}
	wait, err := limit.ReserveAll(ctx,
		limit.Attempt{Limiter: f.cfg.SendPerIP, Key: "ip:" + limit.IPKey(f.cfg.ClientIP(r))},
		limit.Attempt{Limiter: f.cfg.SendPerIdentifier, Key: "id:" + f.cfg.ID + ":" + limit.IdentifierKey(addr)})
	if err != nil {
		f.serverError(h, w, r, b, err)
		return false
	}
	if wait > 0 {
		h.tooManyAttempts(w, r, b, f.cfg.ID, wait)
		return false
	}
	return true
}

// change answers POST {base}/{id}/change for the signed-in user; the
// current password is counted as sign-in attempts are, per user and
// client address.
func (f *passwordFlow) change(ctx context.Context, h *Handler, w http.ResponseWriter, r *http.Request, b *base, form url.Values) {
	userID, err := h.currentUserID(ctx, r, b)
	if err != nil {
		f.serverError(h, w, r, b, err)
		return
	}
	if userID == "" {
		f.signedIn(h, w, r, b) // answers: not signed in
		return
	}
	try := limit.Attempt{Limiter: f.cfg.PerIdentifierAndIP, Key: "change:" + f.cfg.ID + ":" + userID + "|" + limit.IPKey(f.cfg.ClientIP(r))}
	wait, err := limit.ReserveAll(ctx, try)
	if err != nil {
		f.serverError(h, w, r, b, err)
		return
	}
	if wait > 0 {
		h.tooManyAttempts(w, r, b, f.cfg.ID, wait)
		return
	}
	u, err := f.svc.Change(ctx, userID, form.Get("currentPassword"), form.Get("newPassword"))
	n := 0
	if err == nil {
		_ = try.Limiter.Reset(ctx, try.Key)
		// Whoever else held a session (the old password's guesser) is
		// signed out; this browser stays.
		var eerr error
		if n, eerr = h.self.EndOthers(ctx, r, userID); eerr != nil {
			h.cfg.Logger.Error("gatehouse: ending the other sessions after a password change failed", "provider", f.cfg.ID, "err", eerr)
		}
		h.passwordEvents(r.Context(), h.cfg.Events.PasswordChange, u, n)
	} else if !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		_ = try.Limiter.Release(ctx, try.Key) // not a guess
	}
	f.answer(h, w, r, b, pages.PasswordChange, form, err, pages.Notice{Title: "Password changed",
		Message: "Your new password is set. Your account's other sessions were signed out.", LinkURL: b.origin + "/", LinkText: "Continue"}, "password_changed")
}

// signedIn reports whether r has a signed-in user, else answers: the
// sign-in page, back here afterwards, or 401.
func (f *passwordFlow) signedIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base) bool {
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	if id, err := h.currentUserID(ctx, r, b); err == nil && id != "" {
		return true
	}
	if !selfservice.WantsHTML(r) {
		httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(SessionRequired)})
		return false
	}
	httpx.Redirect(w, r, b.url("signin")+"?"+url.Values{"callbackUrl": {b.url(f.cfg.ID, "change")}}.Encode())
	return false
}

// passwordEvents tells ev of u's new password and RevokeSessions of the n
// sessions it ended.
func (h *Handler) passwordEvents(ctx context.Context, ev func(context.Context, profile.User), u profile.User, n int) {
	h.cfg.Logger.Info("gatehouse: password set", "user", u.ID, "sessions_ended", n)
	if ev != nil {
		ev(ctx, u)
	}
	if rs := h.cfg.Events.RevokeSessions; rs != nil && n > 0 {
		rs(ctx, u, n)
	}
}

// verify answers GET {base}/{id}/verify?token&email: the address is
// confirmed and the user signed in.
func (f *passwordFlow) verify(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	q := r.URL.Query()
	u, err := f.svc.Verify(r.Context(), q.Get("email"), q.Get("token"))
	if err == nil {
		acct := &account.Account{Type: account.TypeCredentials, Provider: f.cfg.ID, ProviderAccountID: u.ID}
		err = h.finishSignIn(w, r, b, signin.Result{User: u, Account: acct, CallbackURL: q.Get("callbackUrl"), Unbound: true,
			Persist: func(context.Context) (profile.User, bool, error) { return u, false, nil }})
	}
	if err != nil {
		h.fail(w, r, b, autherr.Wrap(err, Verification, "invalid_token", f.cfg.ID, "verification"))
	}
}

// answer ends a POST: on success the notice (or {"ok":true,"code"}); on
// an error of what was typed, the form again with a sentence (or 400
// {"error":"PasswordForm","code"}); else a server error.
func (f *passwordFlow) answer(h *Handler, w http.ResponseWriter, r *http.Request, b *base, kind pages.PasswordKind, form url.Values, err error, done pages.Notice, code string) {
	if err == nil {
		if !selfservice.WantsHTML(r) {
			httpx.WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "code": code})
			return
		}
		done.Theme = h.cfg.Theme
		h.render(w, http.StatusOK, done)
		return
	}
	code, msg := passwordaccount.FormError(err)
	switch {
	case code == "invalid_token" && selfservice.WantsHTML(r):
		h.fail(w, r, b, autherr.New(Verification, code, f.cfg.ID, string(kind), err))
	case code == "":
		f.serverError(h, w, r, b, err)
	case !selfservice.WantsHTML(r):
		httpx.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "PasswordForm", "code": code, "message": msg})
	default:
		f.page(h, w, r, b, kind, http.StatusBadRequest, msg, form)
	}
}

// serverError answers a failing store or limiter: 503 (the error page, or
// JSON).
func (f *passwordFlow) serverError(h *Handler, w http.ResponseWriter, r *http.Request, b *base, err error) {
	if !selfservice.WantsHTML(r) {
		h.cfg.Logger.Error("gatehouse: a password-account request failed", "provider", f.cfg.ID, "err", err)
		selfservice.StoreUnavailable(w)
		return
	}
	h.fail(w, r, b, autherr.New(AdapterError, "adapter", f.cfg.ID, "password", err))
}

// page renders one of the provider's form pages, keeping what was typed
// (never a password).
func (f *passwordFlow) page(h *Handler, w http.ResponseWriter, r *http.Request, b *base, kind pages.PasswordKind, status int, msg string, in url.Values) {
	p := pages.Password{Theme: h.cfg.Theme, Kind: kind, CSRFToken: h.csrfToken(w, r, b), ActionURL: b.url(f.cfg.ID, string(kind)),
		MinLength: cmp.Or(f.cfg.Policy.MinLength, password.DefaultMinLength), MaxLength: cmp.Or(f.cfg.Policy.MaxLength, password.DefaultMaxLength),
		Error: msg, SignInURL: b.url("signin"), Email: in.Get("email")}
	if cb := in.Get("callbackUrl"); cb != "" {
		p.CallbackURL = h.callbackURL(b, cb, r)
	}
	switch kind {
	case pages.PasswordReset:
		p.Token = in.Get("token")
	case pages.PasswordChange:
		p.SignInURL, p.HomeURL = "", b.origin+"/"
	case pages.PasswordSignUp, pages.PasswordForgot:
	default:
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
		return
	}
	h.render(w, status, p)
}
