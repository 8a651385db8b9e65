// The password-accounts provider's routes (the Service does the work
// without HTTP), built by Config.NewFlow. Under {base}, for provider id:
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
// Every POST is same-origin with the CSRF token (flowHost.CheckPost). A
// browser (httpx.AcceptsHTML) gets pages; any other client JSON:
// {"ok":true,"code":…} or {"error":…,"code":…}. Sign-up and forgot answer
// the same for known and unknown addresses, and both count against the
// e-mail send limits.
//
// The cookies and the session are internal/finish's, through flowHost.

package passwordaccount

import (
	"cmp"
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// flowHost is the handler, as the flow sees it. Its methods take the request,
// from which it knows its base URL and cookies.
type flowHost interface {
	// CSRFToken returns this browser's CSRF token for a form, setting
	// its cookie when there is none.
	CSRFToken(w http.ResponseWriter, r *http.Request) string
	// CheckPost checks a state-changing form POST (same origin, the CSRF
	// token) and returns the form.
	CheckPost(r *http.Request, step string) (url.Values, *autherr.Error)
	// Fail reports e to the browser (the error or sign-in page).
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	// Render writes a built-in page.
	Render(w http.ResponseWriter, r *http.Request, status int, page any)
	Text(r *http.Request, key string, args ...any) string
	// Lang returns the language of r's pages, that of the messages too.
	Lang(r *http.Request) pages.Language
	// URL returns the absolute URL of the route parts under the base
	// path; Origin the site's origin.
	URL(r *http.Request, parts ...string) string
	Origin(r *http.Request) string
	// CallbackURL returns raw when the redirect callback allows it, else
	// the site's default.
	CallbackURL(r *http.Request, raw string) string
	// CurrentUserID returns the signed-in user's id, "" for none.
	CurrentUserID(ctx context.Context, r *http.Request) (string, error)
	// FinishSignIn ends a sign-in as every flow does, redirecting.
	FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error
	// CSRFOK reports whether submitted is this browser's CSRF token;
	// KeepTyped keeps the identifier of a refused sign-in form for the
	// sign-in page (internal/credentialsflow).
	CSRFOK(r *http.Request, submitted string) bool
	KeepTyped(w http.ResponseWriter, r *http.Request, provider, field, identifier string)
	// RateLimited answers 429 and reports true when the provider's
	// sign-in limit refuses this request.
	RateLimited(w http.ResponseWriter, r *http.Request, provider string) bool
	// TooManyAttempts answers a refusal of a per-account limit.
	TooManyAttempts(w http.ResponseWriter, r *http.Request, provider string, wait time.Duration)
	// SignOutHere clears this browser's session cookies.
	SignOutHere(w http.ResponseWriter, r *http.Request)
	// EndOthers ends every session of userID but this browser's and
	// returns how many it ended.
	EndOthers(ctx context.Context, r *http.Request, userID string) (int, error)
}

// flowConfig is what the flow needs besides the flowHost and the Service.
type flowConfig struct {
	Logger *slog.Logger
	Theme  pages.Theme
	Events flowEvents
}

// flowEvents are told what the flow did; nil fields are skipped.
type flowEvents struct {
	PasswordReset  func(ctx context.Context, user profile.User)
	PasswordChange func(ctx context.Context, user profile.User)
	RevokeSessions func(ctx context.Context, user profile.User, n int)
}

// flow is a password-accounts provider's sign-in and routes.
type flow struct {
	svc   *Service
	cfg   Config                  // prepared
	creds *credentialsflow.Config // the sign-in form and its attempt limits
	conf  flowConfig
	host  flowHost
}

// actions returns the provider's own routes, {base}/{id}/{action}; all
// but verify answer a POST too.
func actions() []string { return []string{"sign-up", "verify", "forgot", "reset", "change"} }

// newFlow returns the flow of svc, served through host.
func newFlow(svc *Service, conf flowConfig, host flowHost) *flow {
	f := &flow{svc: svc, cfg: svc.Config(), conf: conf, host: host}
	// The sign-in form, with the limits and ClientIP of the prepared
	// Config.
	f.creds = &credentialsflow.Config{ID: f.cfg.ID, Name: f.cfg.Name, IdentifierField: "email",
		Fields: []pages.Field{
			{Name: "email", Label: "Email", Type: "email", Autocomplete: "username", Required: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
		},
		PerIdentifierAndIP: f.cfg.PerIdentifierAndIP, PerIdentifier: f.cfg.PerIdentifier, PerIP: f.cfg.PerIP, ClientIP: f.cfg.ClientIP,
		Authorize: f.authorize}
	return f
}

// authorize is the sign-in form's check: the Service's, which answers
// the same for unknown addresses and wrong passwords.
func (f *flow) authorize(ctx context.Context, in map[string]string, r *http.Request) (*profile.User, error) {
	u, err := f.svc.SignIn(ctx, in["email"], in["password"])
	switch {
	case errors.Is(err, ErrInvalidCredentials):
		return nil, credentials.ErrInvalid
	case errors.Is(err, ErrUnverified):
		// Only the password's holder gets here: a new link.
		f.svc.ResendVerification(ctx, u.Email, f.links(r, f.host.CallbackURL(r, r.PostForm.Get("callbackUrl"))))
		return nil, err
	case err != nil:
		return nil, err
	}
	return &u, nil
}

// Info returns the provider's id, name and type.
func (f *flow) Info() providers.Base { return f.cfg.ProviderBase() }

// Credentials returns the sign-in form's configuration: its fields and
// attempt limits.
func (f *flow) Credentials() *credentialsflow.Config { return f.creds }

// HasPassword reports whether the user has a password: one of their ways
// to sign in.
func (f *flow) HasPassword(ctx context.Context, userID string) (bool, error) {
	return f.svc.HasPassword(ctx, userID)
}

// Usable reports whether u can sign in with a password now: one is set,
// and u's address (the password's identifier) is confirmed, unless
// unconfirmed addresses may sign in (AllowUnverified).
func (f *flow) Usable(ctx context.Context, u adapter.User) (bool, error) {
	if u.Email == "" || (u.EmailVerified == nil && !f.svc.Config().AllowUnverified) {
		return false, nil
	}
	return f.svc.HasPassword(ctx, u.ID)
}

// Way reports the user's password as a way to sign in besides linked
// accounts, when it is usable (Usable).
func (f *flow) Way(ctx context.Context, _ string, stored func() (adapter.User, error)) (string, int, error) {
	u, err := stored()
	if err != nil {
		return "", 0, err
	}
	ok, err := f.Usable(ctx, u)
	if !ok || err != nil {
		return "", 0, err
	}
	return "Password", 1, nil
}

// CrossSiteCallback: the form is this site's own.
func (*flow) CrossSiteCallback() bool { return false }

// AddTo puts the provider on the built-in sign-in page.
func (f *flow) AddTo(page *pages.SignIn, p providers.AppProvider, b *site.Base) {
	page.Forms = append(page.Forms, pages.PasswordForm{ID: p.ID, Name: p.Name, CallbackURL: p.CallbackURL,
		SignUpURL: b.URL(p.ID, "sign-up"), ForgotURL: b.URL(p.ID, "forgot")})
}

// Form renders the signIn template helper's form: the credentials form
// of the address and the password.
func (f *flow) Form(path string, o pages.HelperForm) template.HTML {
	return credentialsflow.Form(f.creds, path, o)
}

// SignIn answers POST {base}/signin/{id}: the form posts to the callback,
// as a credentials form does, so this goes to the sign-in page.
func (f *flow) SignIn(w http.ResponseWriter, r *http.Request, _ url.Values) {
	httpx.Redirect(w, r, f.host.URL(r, "signin"))
}

// Callback answers POST {base}/callback/{id}: the credentials sign-in,
// whose Authorize is the Service's, signing in the stored user.
func (f *flow) Callback(w http.ResponseWriter, r *http.Request) {
	// The credentials sign-in, whose Authorize returns a stored user,
	// signed in as it is.
	err := credentialsflow.SignIn(w, r, f.creds, true, f.host, f.conf.Logger)
	switch {
	case errors.Is(err, ErrUnverified):
		f.host.Fail(w, r, autherr.New(autherr.EmailUnverified, "unverified", f.cfg.ID, "authorize", err))
	case err != nil:
		f.host.Fail(w, r, autherr.Wrap(err, autherr.CallbackRouteError, "authorize", f.cfg.ID, "authorize"))
	}
}

// links are the URLs the provider's messages point to.
func (f *flow) links(r *http.Request, callback string) Links {
	return Links{Verify: f.host.URL(r, f.cfg.ID, "verify"), Reset: f.host.URL(r, f.cfg.ID, "reset"),
		Forgot: f.host.URL(r, f.cfg.ID, "forgot"), CallbackURL: callback, Language: f.host.Lang(r).Tag}
}

// Route answers {base}/{id}/{action}, one of Actions.
func (f *flow) Route(w http.ResponseWriter, r *http.Request) {
	// The links and the reset form carry tokens.
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	if f.host.RateLimited(w, r, f.cfg.ID) {
		return
	}
	action := path.Base(r.URL.Path)
	if r.Method != http.MethodPost {
		if action == "verify" {
			f.verify(w, r)
			return
		}
		if action == "change" && !f.signedIn(w, r) {
			return
		}
		f.page(w, r, pages.PasswordKind(action), http.StatusOK, "", r.URL.Query())
		return
	}
	form, e := f.host.CheckPost(r, "password")
	if e != nil {
		if httpx.AcceptsHTML(r) {
			f.host.Fail(w, r, e)
		} else {
			httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(e.Type), "code": e.Code})
		}
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	switch action {
	case "sign-up", "forgot":
		if !f.sendLimits(ctx, w, r, form.Get("email")) {
			return
		}
		links := f.links(r, f.host.CallbackURL(r, form.Get("callbackUrl")))
		if action == "sign-up" {
			err := f.svc.SignUp(ctx, form.Get("email"), form.Get("password"), form.Get("name"), links)
			f.answer(w, r, pages.PasswordSignUp, form, err, pages.Notice{Title: f.host.Text(r, "verify.title"),
				Message: f.host.Text(r, "passwordflow.confirmSent"),
				LinkURL: f.host.URL(r, "signin"), LinkText: f.host.Text(r, "action.backToSignIn")}, "check_email")
			return
		}
		err := f.svc.Forgot(ctx, form.Get("email"), links)
		f.answer(w, r, pages.PasswordForgot, form, err, pages.Notice{Title: f.host.Text(r, "verify.title"),
			Message: f.host.Text(r, "passwordflow.resetSent"),
			LinkURL: f.host.URL(r, "signin"), LinkText: f.host.Text(r, "action.backToSignIn")}, "check_email")
	case "reset":
		u, n, err := f.svc.Reset(ctx, form.Get("email"), form.Get("token"), form.Get("password"))
		if err == nil {
			// Signed out here too: the session was one of the user's.
			f.host.SignOutHere(w, r)
			f.events(r.Context(), f.conf.Events.PasswordReset, u, n)
		}
		f.answer(w, r, pages.PasswordReset, form, err, pages.Notice{Title: f.host.Text(r, "passwordflow.changed"),
			Message: f.host.Text(r, "passwordflow.resetDone"),
			LinkURL: f.host.URL(r, "signin"), LinkText: f.host.Text(r, "signin.title")}, "password_reset")
	case "change":
		f.change(ctx, w, r, form)
	default:
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
	}
}

// sendLimits reserves a sign-up's or reset request's place in the send
// limits, per client address and per address typed (known or not, so the
// limits tell nothing), answering 429 past them. An address that does
// not parse is left to the Service, which refuses it.
func (f *flow) sendLimits(ctx context.Context, w http.ResponseWriter, r *http.Request, typed string) bool {
	addr, err := f.svc.Normalize(typed)
	if err != nil {
		return true
	}
	wait, err := limit.ReserveAll(ctx,
		limit.Attempt{Limiter: f.cfg.SendPerIP, Key: "ip:" + limit.IPKey(f.cfg.ClientIP(r))},
		limit.Attempt{Limiter: f.cfg.SendPerIdentifier, Key: "id:" + f.cfg.ID + ":" + limit.IdentifierKey(addr)})
	if err != nil {
		f.serverError(w, r, err)
		return false
	}
	if wait > 0 {
		f.host.TooManyAttempts(w, r, f.cfg.ID, wait)
		return false
	}
	return true
}

// change answers POST {base}/{id}/change for the signed-in user; the
// current password is counted as sign-in attempts are, per user and
// client address and per user.
func (f *flow) change(ctx context.Context, w http.ResponseWriter, r *http.Request, form url.Values) {
	userID, err := f.host.CurrentUserID(ctx, r)
	if err != nil {
		f.serverError(w, r, err)
		return
	}
	if userID == "" {
		f.signedIn(w, r) // answers: not signed in
		return
	}
	// Per user and address, and per user from anywhere (the higher
	// ceiling of a sign-in's, ASVS 2.2.1): a stolen session cookie used
	// from many addresses guesses no faster than one sign-in form.
	try := limit.Attempt{Limiter: f.cfg.PerIdentifierAndIP, Key: "change:" + f.cfg.ID + ":" + userID + "|" + limit.IPKey(f.cfg.ClientIP(r))}
	anywhere := limit.Attempt{Limiter: f.cfg.PerIdentifier, Key: "change-id:" + f.cfg.ID + ":" + userID}
	wait, err := limit.ReserveAll(ctx, try, anywhere)
	if err != nil {
		f.serverError(w, r, err)
		return
	}
	if wait > 0 {
		f.host.TooManyAttempts(w, r, f.cfg.ID, wait)
		return
	}
	u, err := f.svc.Change(ctx, userID, form.Get("currentPassword"), form.Get("newPassword"))
	n := 0
	if err == nil {
		_ = try.Limiter.Reset(ctx, try.Key)
		_ = anywhere.Limiter.Reset(ctx, anywhere.Key)
		// Whoever else held a session (the old password's guesser) is
		// signed out; this browser stays.
		var eerr error
		if n, eerr = f.host.EndOthers(ctx, r, userID); eerr != nil {
			f.conf.Logger.Error("gatehouse: ending the other sessions after a password change failed", "provider", f.cfg.ID, "err", eerr)
		}
		f.events(r.Context(), f.conf.Events.PasswordChange, u, n)
	} else if !errors.Is(err, ErrInvalidCredentials) {
		_ = try.Limiter.Release(ctx, try.Key) // not a guess
		_ = anywhere.Limiter.Release(ctx, anywhere.Key)
	}
	f.answer(w, r, pages.PasswordChange, form, err, pages.Notice{Title: f.host.Text(r, "passwordflow.changed"),
		Message: f.host.Text(r, "passwordflow.changeDone"), LinkURL: f.host.Origin(r) + "/", LinkText: f.host.Text(r, "passwordflow.continue")}, "password_changed")
}

// signedIn reports whether r has a signed-in user, else answers: the
// sign-in page, back here afterwards, or 401.
func (f *flow) signedIn(w http.ResponseWriter, r *http.Request) bool {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	if id, err := f.host.CurrentUserID(ctx, r); err == nil && id != "" {
		return true
	}
	if !httpx.AcceptsHTML(r) {
		httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(autherr.SessionRequired)})
		return false
	}
	httpx.Redirect(w, r, f.host.URL(r, "signin")+"?"+url.Values{"callbackUrl": {f.host.URL(r, f.cfg.ID, "change")}}.Encode())
	return false
}

// events tells ev of u's new password and RevokeSessions of the n
// sessions it ended.
func (f *flow) events(ctx context.Context, ev func(context.Context, profile.User), u profile.User, n int) {
	f.conf.Logger.Info("gatehouse: password set", "user", u.ID, "sessions_ended", n)
	if ev != nil {
		ev(ctx, u)
	}
	if rs := f.conf.Events.RevokeSessions; rs != nil && n > 0 {
		rs(ctx, u, n)
	}
}

// verify answers GET {base}/{id}/verify?token&email: the address is
// confirmed and the user signed in.
func (f *flow) verify(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	u, err := f.svc.Verify(r.Context(), q.Get("email"), q.Get("token"))
	if err == nil {
		// UserID: the stored user, whom a signed-in browser is compared
		// with (no linked account records a password).
		acct := &account.Account{UserID: u.ID, Type: account.TypeCredentials, Provider: f.cfg.ID, ProviderAccountID: u.ID}
		err = f.host.FinishSignIn(w, r, signin.Result{User: u, Account: acct, CallbackURL: q.Get("callbackUrl"), Unbound: true,
			Persist: func(context.Context) (profile.User, bool, error) { return u, false, nil }})
	}
	if err != nil {
		f.host.Fail(w, r, autherr.Wrap(err, autherr.Verification, "invalid_token", f.cfg.ID, "verification"))
	}
}

// answer ends a POST: on success the notice (or {"ok":true,"code"}); on
// an error of what was typed, the form again with a sentence (or 400
// {"error":"PasswordForm","code"}); else a server error.
func (f *flow) answer(w http.ResponseWriter, r *http.Request, kind pages.PasswordKind, form url.Values, err error, done pages.Notice, code string) {
	if err == nil {
		if !httpx.AcceptsHTML(r) {
			httpx.WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "code": code})
			return
		}
		done.Theme = f.conf.Theme
		f.host.Render(w, r, http.StatusOK, done)
		return
	}
	code, msg := FormError(err)
	switch {
	case code == "invalid_token" && httpx.AcceptsHTML(r):
		f.host.Fail(w, r, autherr.New(autherr.Verification, code, f.cfg.ID, string(kind), err))
	case code == "":
		f.serverError(w, r, err)
	case !httpx.AcceptsHTML(r):
		httpx.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "PasswordForm", "code": code, "message": msg})
	default:
		// The page's sentence in the visitor's language: the catalogue's
		// for the code, else FormError's own (English).
		if m := f.host.Text(r, "passwordflow.err."+code); m != "passwordflow.err."+code {
			msg = m
		}
		f.page(w, r, kind, http.StatusBadRequest, msg, form)
	}
}

// serverError answers a failing store or limiter: 503 (the error page, or
// JSON).
func (f *flow) serverError(w http.ResponseWriter, r *http.Request, err error) {
	if !httpx.AcceptsHTML(r) {
		f.conf.Logger.Error("gatehouse: a password-account request failed", "provider", f.cfg.ID, "err", err)
		httpx.StoreUnavailable(w)
		return
	}
	f.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", f.cfg.ID, "password", err))
}

// page renders one of the provider's form pages, keeping what was typed
// (never a password).
func (f *flow) page(w http.ResponseWriter, r *http.Request, kind pages.PasswordKind, status int, msg string, in url.Values) {
	p := pages.Password{Theme: f.conf.Theme, Kind: kind, CSRFToken: f.host.CSRFToken(w, r), ActionURL: f.host.URL(r, f.cfg.ID, string(kind)),
		MinLength: cmp.Or(f.cfg.Policy.MinLength, password.DefaultMinLength), MaxLength: cmp.Or(f.cfg.Policy.MaxLength, password.DefaultMaxLength),
		Error: msg, SignInURL: f.host.URL(r, "signin"), Email: in.Get("email")}
	if cb := in.Get("callbackUrl"); cb != "" {
		p.CallbackURL = f.host.CallbackURL(r, cb)
	}
	switch kind {
	case pages.PasswordReset:
		p.Token = in.Get("token")
	case pages.PasswordChange:
		p.SignInURL, p.HomeURL = "", f.host.Origin(r)+"/"
	case pages.PasswordSignUp, pages.PasswordForgot:
	default:
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
		return
	}
	f.host.Render(w, r, status, p)
}

// Actions returns the provider's own routes (plugin.Router).
func (f *flow) Actions() []string { return actions() }

// The flow has routes of its own, and a password is a way to sign in
// besides linked accounts.
var (
	_ plugin.Router   = (*flow)(nil)
	_ plugin.Way      = (*flow)(nil)
	_ plugin.Provider = Config{}
)

// NewFlow checks c against the handler's configuration and returns its
// sign-in and routes. gatehouse.New calls it; applications do not. It
// needs an adapter that keeps password hashes, and the handler's URL.
func (c Config) NewFlow(e *plugin.Env) (plugin.Flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = e.Limiter(c.PerIP, id+"-per-ip", credentials.DefaultPerIP, credentials.DefaultWindow)
	c.PerIdentifier = e.Limiter(c.PerIdentifier, id+"-per-identifier", credentials.DefaultPerIdentifier, credentials.DefaultWindow)
	c.PerIdentifierAndIP = e.Limiter(c.PerIdentifierAndIP, id+"-per-identifier-and-ip", credentials.DefaultPerIdentifierAndIP, credentials.DefaultWindow)
	c.SendPerIP = e.Limiter(c.SendPerIP, id+"-sends-per-ip", email.DefaultSendsPerIP, email.DefaultSendWindow)
	c.SendPerIdentifier = e.Limiter(c.SendPerIdentifier, id+"-sends-per-identifier", email.DefaultSendsPerIdentifier, email.DefaultSendWindow)
	if c.ClientIP == nil {
		c.ClientIP = e.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, err
	}
	store, ok := e.Adapter.(Store)
	if !ok || !adapter.Supports[adapter.PasswordStore](e.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a password-accounts provider needs an Adapter that keeps password hashes (adapter.PasswordStore)"}
	}
	if e.URL == "" { // as for e-mail links
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "URL", Reason: "a password-accounts provider needs Config.URL (AUTH_URL): links must not take their host from the request"}
	}
	svc, err := NewService(c, store, Options{Secrets: e.Secret, Logger: e.Logger, CreateUser: e.Events.CreateUser})
	if err != nil {
		return nil, err
	}
	return newFlow(svc, flowConfig{Logger: e.Logger, Theme: e.Theme,
		Events: flowEvents{PasswordReset: e.Events.PasswordReset, PasswordChange: e.Events.PasswordChange, RevokeSessions: e.Events.RevokeSessions}}, e.Finisher), nil
}
