package gatehouse

// The credentials sign-in, top to bottom: the form POSTs to
// {base}/callback/{id}; the CSRF token is checked, then the attempt
// limits, then the application's Authorize, then the session is issued
// with the strategy in force (JWT or database: Auth.js allows only JWT).
//
// What each step defends against:
//   - CSRF (login CSRF too): the signed double-submit token is required.
//   - brute force and credential stuffing: failed attempts are counted per
//     client address and per identifier; past either limit the answer is
//     429 with Retry-After, and Authorize is not called, so a right guess
//     made while locked out is not told apart from a wrong one.
//   - enumeration: every refusal is the one CredentialsSignin error; the
//     application's Authorize keeps its timing flat.
//
// The password-accounts provider: its routes and pages live in
// internal/passwordflow, providers/passwordaccount does the work without
// HTTP. Here: building the flow at New, the flow interface, the route
// {base}/{id}/{action} and the Host methods only this flow needs.

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// credentialsFlow is the flow of a credentials provider: its form posts
// to the callback, which asks the application's Authorize.
type credentialsFlow struct{ *credentials.Config }

// addCredentials checks a credentials provider and returns its flow.
func addCredentials(c credentials.Config) (flow, error) {
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	return credentialsFlow{&c}, nil
}

func (f credentialsFlow) info() providers.Base { return f.ProviderBase() }

func (credentialsFlow) crossSiteCallback() bool { return false }

func (f credentialsFlow) addTo(page *pages.SignIn, p providers.AppProvider, _ *base) {
	fs := make([]pages.Field, len(f.Fields))
	for i, x := range f.Fields {
		fs[i] = pages.Field{Name: x.Name, Label: x.Label, Type: x.Type, Placeholder: x.Placeholder, Autocomplete: x.Autocomplete, Required: x.Required}
	}
	page.Credentials = append(page.Credentials, pages.CredentialsForm{ID: p.ID, Name: p.Name, CallbackURL: p.CallbackURL, Fields: fs})
}

func (f credentialsFlow) form(path, csrf, callback string) template.HTML {
	return renderForm(credentialsFormTmpl, formData{Action: path + "/callback/" + f.ID, Name: f.Name, CSRF: csrf, Callback: callback, Fields: f.Fields})
}

// signIn: the form posts to the callback (Auth.js does the same), so a
// POST here is sent to the sign-in page.
func (credentialsFlow) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, _ url.Values) {
	httpx.Redirect(w, r, b.url("signin"))
}

// callback answers POST {base}/callback/{id}.
func (f credentialsFlow) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	c := f.Config
	if err := h.credentialsSignIn(w, r, b, c, false); err != nil {
		h.fail(w, r, b, autherr.Wrap(err, CallbackRouteError, "authorize", c.ID, "authorize"))
	}
}

// credentialsSignIn signs in with c's form. stored means Authorize returns
// a stored user (the password-accounts provider's), which is signed in as
// it is, without the linking rules.
func (h *Handler) credentialsSignIn(w http.ResponseWriter, r *http.Request, b *base, c *credentials.Config, stored bool) error {
	ctx := r.Context()
	fail := func(t ErrorType, code, step string, err error) error {
		return autherr.New(t, code, c.ID, step, err)
	}
	// Credentials are posted, never put in a URL (Auth.js: a GET is a
	// configuration error).
	if r.Method != http.MethodPost {
		return fail(CredentialsSignin, "method", "callback", errors.New("credentials must be POSTed"))
	}

	// 1. CSRF, before anything else is read or counted.
	form, err := httpx.ReadForm(r)
	if err != nil || !h.csrfOK(r, b, form.Get("csrfToken")) {
		return fail(MissingCSRF, "csrf", "callback", errors.New("CSRF token missing or wrong"))
	}
	creds := make(map[string]string, len(c.Fields))
	for _, f := range c.Fields {
		creds[f.Name] = form.Get(f.Name)
	}

	// 2. The attempt limits, reserved before Authorize runs: the count is
	// taken first and atomically, so N concurrent guesses get at most the
	// limit through (checking first and counting after Authorize let them
	// all through). Per identifier and client, per identifier anywhere (a
	// higher ceiling, so an attacker cannot lock the real user out from
	// another address, ASVS 2.2.1), per client. Any limiter error refuses.
	ip := limit.IPKey(c.ClientIP(r))
	id := c.ID + ":" + limit.IdentifierKey(creds[c.IdentifierField])
	pair := limit.Attempt{Limiter: c.PerIdentifierAndIP, Key: "idip:" + id + "|" + ip}
	ident := limit.Attempt{Limiter: c.PerIdentifier, Key: "id:" + id}
	client := limit.Attempt{Limiter: c.PerIP, Key: "ip:" + ip}
	wait, err := limit.ReserveAll(ctx, client, pair, ident)
	if err != nil {
		return fail(CallbackRouteError, "limiter", "limit", err)
	}
	if wait > 0 {
		h.tooManyAttempts(w, r, b, c.ID, wait)
		return nil
	}
	release := func(as ...limit.Attempt) {
		for _, a := range as {
			if err := a.Limiter.Release(ctx, a.Key); err != nil {
				h.cfg.Logger.Error("gatehouse: giving back an attempt failed", "provider", c.ID, "err", err)
			}
		}
	}

	// 3. The application's check. A nil user, ErrInvalid or a
	// *SignInError is a wrong guess, and stays counted; any other error
	// is the server's, and the attempt is given back.
	user, err := c.Authorize(ctx, creds, r)
	if err == nil && user == nil {
		err = credentials.ErrInvalid
	}
	if err != nil {
		if !errors.Is(err, credentials.ErrInvalid) {
			release(client, pair, ident)
			return fail(CallbackRouteError, "authorize", "authorize", err)
		}
		code := "credentials"
		var se *credentials.SignInError
		if errors.As(err, &se) && publicCode.MatchString(se.Code) {
			code = se.Code
		}
		return fail(CredentialsSignin, code, "authorize", err)
	}
	if user.ID == "" {
		return fail(CallbackRouteError, "id_missing", "authorize", errors.New("the Authorize function returned a user without an ID"))
	}
	// A success clears the identifier's counts and gives the address its
	// attempt back; the address's failures stay counted, else one valid
	// account would let an attacker reset their own count.
	for _, a := range []limit.Attempt{pair, ident} {
		if err := a.Limiter.Reset(ctx, a.Key); err != nil {
			h.cfg.Logger.Error("gatehouse: resetting an attempt count failed", "provider", c.ID, "err", err)
		}
	}
	release(client)

	// 4. The user is an account of this provider, keyed by its ID: with
	// an adapter, found or created and linked as an OAuth account is.
	u := *user
	u.Email = strings.ToLower(strings.TrimSpace(u.Email))
	acct := &account.Account{Type: account.TypeCredentials, Provider: c.ID, ProviderAccountID: u.ID}
	res := signin.Result{User: u, Account: acct, CallbackURL: form.Get("callbackUrl"),
		AllowDangerousLinking: c.AllowDangerousEmailAccountLinking, Unbound: true}
	if stored {
		res.Persist = func(context.Context) (profile.User, bool, error) { return u, false, nil }
	}
	return h.finishSignIn(w, r, b, res)
}

// passwordFlow is a password-accounts provider.
type passwordFlow struct{ *passwordflow.Flow }

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
	f, err := passwordflow.New(svc, passwordflow.Config{Logger: h.cfg.Logger, Theme: h.cfg.Theme,
		Events: passwordflow.Events{PasswordReset: h.cfg.Events.PasswordReset, PasswordChange: h.cfg.Events.PasswordChange, RevokeSessions: h.cfg.Events.RevokeSessions}}, host{h})
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	return passwordFlow{f}, nil
}

func (f passwordFlow) info() providers.Base { return f.Info() }

func (passwordFlow) crossSiteCallback() bool { return false }

func (f passwordFlow) addTo(page *pages.SignIn, p providers.AppProvider, b *base) {
	f.AddTo(page, p, b.url)
}

// form is the credentials form of the provider's email and password.
func (f passwordFlow) form(path, csrf, callback string) template.HTML {
	return credentialsFlow{f.Credentials()}.form(path, csrf, callback)
}

func (f passwordFlow) signIn(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base, _ url.Values) {
	f.SignIn(w, r)
}

func (f passwordFlow) callback(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base) {
	f.Callback(w, r)
}

// passwordRoute answers {base}/{id}/{action}, for a password-accounts
// provider id.
func (h *Handler) passwordRoute(w http.ResponseWriter, r *http.Request) {
	f, ok := h.flows[r.PathValue("provider")].(passwordFlow)
	if !ok {
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
		return
	}
	f.Route(w, r)
}

// CredentialsSignIn runs the credentials sign-in (credentials.go) of c's
// form, whose Authorize returns a stored user, signed in as it is.
func (s host) CredentialsSignIn(w http.ResponseWriter, r *http.Request, c *credentials.Config) error {
	return s.h.credentialsSignIn(w, r, s.h.baseFor(r), c, true)
}

// EndOthers ends every database session of userID but this browser's
// (internal/selfservice) and returns how many it ended.
func (s host) EndOthers(ctx context.Context, r *http.Request, userID string) (int, error) {
	return s.h.self.EndOthers(ctx, r, userID)
}
