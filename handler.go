package gatehouse

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/clientip"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/finish"
	"github.com/gatehouse-auth/gatehouse/internal/helpers"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/internal/tokensource"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// Handler serves the auth routes under its base path and reads sessions
// for the application. Build it once with New; it is safe for concurrent
// use.
type Handler struct {
	cfg    Config
	routes *chi.Mux      // the routes below the base path (routes.go)
	strip  site.Stripper // the path below the base path (internal/site)
	// notFoundAnswer and methodAnswer answer requests that no route
	// takes (routes.go).
	notFoundAnswer, methodAnswer *site.WrongAnswer
	// site resolves each request's origin, base path and cookie names,
	// checks origin, CSRF token and rate limit, and answers failures and
	// the built-in pages (internal/site).
	site     *site.Site
	order    []string        // provider ids in configuration order
	flows    map[string]flow // by provider id (routes.go)
	sealer   *checks.Sealer
	sessions *sessions.Manager      // issues, reads and ends sessions (internal/sessions)
	tokens   *tokensource.Refresher // provider tokens refreshed and saved (tokens.go)
	// twoFactor is two-factor sign-in, built by Config.TwoFactor's own
	// package; nil when off (finish.go, internal/twofactorflow).
	twoFactor twofactorflow.Flow
	fin       *finish.Finisher // the end of every sign-in (internal/finish)
	env       *plugin.Env      // what the providers' own packages build their flows with (internal/plugin)
	// selfService are the account and sessions routes, nil when
	// Config.SelfService is off (finish.go).
	selfService []plugin.Route
	// twoFactorSettings are the two-factor settings routes, nil when
	// two-factor sign-in is off (twofactorflow.Flow.Settings).
	twoFactorSettings http.HandlerFunc
	// The features Config turns on, nil when off (internal/plugin).
	orgs  plugin.Organizations // Config.Organizations
	keys  plugin.MachineAccess // Config.MachineAccess: API keys and service tokens
	admin plugin.Admin         // Config.Admin: users, roles, bans
}

// New validates cfg and builds a Handler. Every provider is checked now:
// a configuration error names the provider and the field.
func New(cfg Config) (*Handler, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	h := &Handler{cfg: cfg,
		tokens: &tokensource.Refresher{Adapter: cfg.Adapter, Flights: rp.NewRefreshGroup(), Logger: cfg.Logger, OnRefresh: cfg.Events.Refresh}}
	cfg.HTTPClient, cfg.ProviderTimeout = rp.HTTPClient(cfg.HTTPClient, cfg.ProviderTimeout)
	h.cfg.HTTPClient, h.cfg.ProviderTimeout = cfg.HTTPClient, cfg.ProviderTimeout
	// Every default limit is made by one backend (Config.Limits), each
	// under its own name, with the numbers it has in memory.
	if h.cfg.Limits == nil {
		h.cfg.Limits = limit.InMemory{}
	}
	h.cfg.RateLimit = h.limiter(h.cfg.RateLimit, "rate", DefaultRateLimit, time.Minute)
	if h.cfg.ClientIP == nil {
		h.cfg.ClientIP = credentials.RemoteIP
		if len(h.cfg.TrustedProxies) > 0 {
			proxies, err := clientip.New(h.cfg.TrustedProxies, h.cfg.ClientIPHeader)
			if err != nil {
				return nil, &ConfigError{Field: "TrustedProxies", Err: err}
			}
			h.cfg.ClientIP = proxies.ClientIP
		}
	}
	if len(cfg.Providers) == 0 {
		return nil, &ConfigError{Field: "Providers", Err: errNoProviders}
	}
	// Before the providers: their flows seal with it, and check and
	// answer through the site.
	if h.sealer, err = checks.NewSealer(cfg.Secret); err != nil {
		return nil, &ConfigError{Field: "Secret", Err: err}
	}
	if h.site, err = h.newSite(); err != nil {
		return nil, err
	}
	// Then, in this order, each built from what is built before it: the
	// sessions, the second step of two-factor sign-ins, the end of every
	// sign-in (internal/finish), what the providers' own packages build
	// with (internal/plugin), the providers' flows, which end in the
	// finisher, the self-service routes, which list the flows, and the
	// features the application turned on (organizations, machine access,
	// admin), each built by its own package (internal/plugin).
	fs := &finish.Site{Site: h.site}
	if h.sessions, err = h.newSessions(); err != nil {
		return nil, err
	}
	fs.Sessions = h.sessions
	if cfg.Admin != nil { // every built-in page shows an impersonation
		user := cfg.Admin.Impersonations().User
		h.site.Impersonating = func(r *http.Request) (string, bool) { return user(h.sessions, r, h.site.For(r)) }
	}
	if h.twoFactor, err = h.newTwoFactor(fs); err != nil {
		return nil, err
	}
	h.fin = h.newFinisher(fs, h.twoFactor)
	h.env = h.newEnv()
	if h.order, h.flows, err = plugin.Build(cfg.Providers, h.newFlow); err != nil { // newFlow: routes.go
		return nil, err
	}
	h.strip = site.NewStripper(h.cfg.BasePath)
	for _, step := range []func() error{h.checkPasskeys, h.checkLook, h.newSelfService, h.newFeatures,
		h.checkBasePath, h.newWrongAnswers} { // the last two: routes.go
		if err := step(); err != nil {
			return nil, err
		}
	}
	h.routes = h.router()
	return h, nil
}

// newFeatures builds the features cfg turns on (internal/plugin): the
// packages the application configured them with build them.
func (h *Handler) newFeatures() error {
	c := h.cfg
	e := &plugin.FeatureEnv{Env: h.env, DatabaseSessions: c.Session.Strategy == StrategyDatabase, Organizations: c.Organizations != nil,
		MaxAge: c.Session.MaxAge, FreshAge: c.Session.FreshAge, Providers: c.Providers, NotFound: h.notFound}
	var err error
	if c.Organizations != nil {
		if h.orgs, err = c.Organizations.NewOrganizations(e); err != nil {
			return featureError("Organizations", err)
		}
	}
	if c.MachineAccess != nil {
		if h.keys, err = c.MachineAccess.NewMachineAccess(e); err != nil {
			return featureError("MachineAccess", err)
		}
	}
	if c.Admin != nil {
		if h.admin, err = c.Admin.NewAdmin(e); err != nil {
			return featureError("Admin", err)
		}
	}
	return nil
}

// featureError returns err, a feature's, as a *ConfigError on field.
func featureError(field string, err error) error {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return err
	}
	return &ConfigError{Field: field, Err: err}
}

// newEnv returns what the providers' own packages build their flows
// with (internal/plugin).
func (h *Handler) newEnv() *plugin.Env {
	c := h.cfg
	_, inMemory := c.Limits.(limit.InMemory)
	e := &plugin.Env{Finisher: h.fin, Sealer: h.sealer, Adapter: c.Adapter, Logger: c.Logger,
		URL: c.URL, BasePath: c.BasePath, Secret: c.Secret, Theme: c.Theme, VerifyRequestPage: c.Pages.VerifyRequest,
		Limits: c.Limits, SharedLimits: !inMemory, Limiter: h.limiter, ClientIP: c.ClientIP, Getenv: h.getenv,
		Events: plugin.Events{CreateUser: c.Events.CreateUser, LinkAccount: c.Events.LinkAccount,
			PasswordReset: c.Events.PasswordReset, PasswordChange: c.Events.PasswordChange, RevokeSessions: c.Events.RevokeSessions,
			Organization: c.Events.Organization, Admin: c.Events.Admin, APIKey: c.Events.APIKey}}
	if cb := c.Callbacks.SignIn; cb != nil {
		e.AllowLink = func(ctx context.Context, user profile.User, acct *account.Account, r *http.Request) (bool, error) {
			allow, _, err := cb(ctx, SignInParams{User: user, Account: acct, Request: r, VerificationRequest: true})
			return allow, err
		}
	}
	return e
}

// newSessions returns the session manager of h's configuration
// (internal/sessions).
func (h *Handler) newSessions() (*sessions.Manager, error) {
	c := h.cfg
	sc := sessions.Config{Database: c.Session.Strategy == StrategyDatabase, MaxAge: c.Session.MaxAge, UpdateAge: c.Session.UpdateAge,
		Adapter: c.Adapter, Secret: c.Secret, AuthJSNames: c.AuthJSCookieNames, Logger: c.Logger, JWT: c.Callbacks.JWT, Session: c.Callbacks.Session}
	if c.Session.CookieCache.Enabled {
		sc.CookieCache = c.Session.CookieCache.MaxAge // off for an adapter.LiveSessions (sessions.New)
	}
	if c.Organizations != nil && sc.Database { // the JWT holds it in its token
		sc.Active = func(ctx context.Context, tokenHash string) (string, error) { return h.orgs.ActiveFor(ctx, tokenHash) }
	}
	if c.Admin != nil {
		sc.Admin, _ = c.Adapter.(admin.Store) // bans and revocations: checked by newAdmin
		sc.Impersonations = c.Admin.Impersonations()
	}
	m, err := sessions.New(sc)
	if err != nil {
		return nil, &ConfigError{Field: "Secret", Err: err}
	}
	return m, nil
}

// newSite returns the site of h's configuration (internal/site).
func (h *Handler) newSite() (*site.Site, error) {
	c := h.cfg
	csrf, err := checks.NewCSRF(c.Secret)
	if err != nil {
		return nil, &ConfigError{Field: "Secret", Err: err}
	}
	s := &site.Site{Resolver: &site.Resolver{Path: c.BasePath, Secure: c.UseSecureCookies, AuthJSNames: c.AuthJSCookieNames, TrustHost: c.TrustHost},
		CSRF: csrf, Sealer: h.sealer, CrossOrigin: http.NewCrossOriginProtection(), RateLimit: c.RateLimit, ClientIP: c.ClientIP,
		Logger: c.Logger, Theme: c.Theme, Language: c.Language, RedirectPolicy: c.Callbacks.Redirect, Failure: c.Events.Failure, MadeToken: h.madeToken,
		Pages: site.Pages(c.Pages)}
	if c.URL != "" {
		u, _ := url.Parse(c.URL)
		// The public origin, for proxies that rewrite Host.
		if err := s.CrossOrigin.AddTrustedOrigin(s.Fix(u.Scheme, u.Host).Origin); err != nil {
			return nil, &ConfigError{Field: "URL", Err: err}
		}
	}
	return s, nil
}

// madeToken returns the CSRF token the Middleware made for r when it set
// the cookie, or found in r's cookie (site.Site.MadeToken).
func (h *Handler) madeToken(r *http.Request, b *base) string {
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h && st.base.Same(b) {
		return st.csrfToken
	}
	return ""
}

// base is where the routes are reached from, for one request
// (internal/site).
type base = site.Base

// baseFor returns the base of a request (site.Resolver.For).
func (h *Handler) baseFor(r *http.Request) *base { return h.site.For(r) }

// BasePath returns the path the routes live under, e.g. "/auth".
func (h *Handler) BasePath() string { return h.cfg.BasePath }

// Providers returns the configured providers as the application sees them
// (Auth.js's AppProviders), in configuration order, for the origin of r.
func (h *Handler) Providers(r *http.Request) []providers.AppProvider {
	return plugin.AppProviders(h.order, h.flows, h.baseFor(r))
}

type ctxKey struct{}

// reqState is what the middleware puts in the request context.
type reqState struct {
	session *Session
	// sessionBuf holds the session read for this request, which session
	// then points to: no allocation of its own (sessions.ReadTo).
	sessionBuf sessions.Buffer
	csrfToken  string // the request's token: its cookie's, verified, or one made for it
	csrfCookie string // or the browser's cookie, checked on use
	base       *base
	owner      *Handler // the Handler whose Middleware read the session
	// bearer: the request carried "Authorization: Bearer" (Session.Bearer)
	// and session, if any, came from bearerToken, not from a cookie.
	bearer      bool
	bearerToken string
	// key is the API key's principal when bearer came from a key
	// (Config.MachineAccess); keyWait is set when its rate limit was reached.
	key     *apikey.Principal
	keyWait time.Duration
	// storeErr is ErrStoreUnavailable when the session could not be read
	// (database sessions): not signed out, unknown.
	storeErr error
	// pending: the Middleware left the session to be read at its first
	// use (load), through w and r: a request to the handler's own routes,
	// most of which need none, and the ones that do read it before they
	// answer.
	pending bool
	once    sync.Once
	w       http.ResponseWriter
	r       *http.Request
}

// load reads the session the Middleware left pending, once; a cookie it
// clears or renews goes to w when not nil (the route's writer), to the
// Middleware's otherwise. The read sees the request as the Middleware
// got it (a Session callback's context does not lead back here).
func (st *reqState) load(w http.ResponseWriter) {
	if st.pending {
		st.once.Do(func() {
			if w != nil {
				st.w = w
			}
			st.session, st.storeErr = st.owner.sessions.ReadTo(&st.sessionBuf, st.w, st.r, st.base)
			st.w, st.r = nil, nil
		})
	}
}

// Middleware reads the session of every request once and puts it in the
// request context, where SessionFrom finds it (for a request to the
// handler's own routes, at its first use: most of them need none). It also makes sure the
// browser has a CSRF cookie, so that forms rendered with the template
// helpers can be posted. Wrap the whole application with it.
func (h *Handler) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.nothingToRead(r) {
			next.ServeHTTP(w, r)
			return
		}
		r = h.withNewState(w, r)
		if st := r.Context().(*stateContext); st.st.keyWait > 0 {
			plugin.TooManyKeyRequests(w, st.st.keyWait)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// nothingToRead reports whether r is a request to the handler's own
// routes that carries neither a Cookie nor an Authorization header: it
// has no session (a session, its cookie cache, an impersonation and the
// CSRF cookie are all cookies; a Bearer token is an Authorization
// header), the Middleware mints no CSRF cookie there and reads no API
// key there, so its state would hold nothing. The Middleware passes such
// a request on as it came, without the state's allocation: SessionFrom
// and SessionErr answer nil for it all the same, and Require, Execute
// and Funcs read it themselves as for a request the Middleware did not
// see. A script polling {base}/session before sign-in is such a request.
func (h *Handler) nothingToRead(r *http.Request) bool {
	return len(r.Header["Cookie"]) == 0 && len(r.Header["Authorization"]) == 0 && underBase(r.URL.Path, h.cfg.BasePath)
}

// stateRequest is a request as the Middleware passes it on and the
// context it carries, allocated together: one allocation per request
// where r.WithContext and the context would be two. The request is a
// copy of the one the Middleware got, as r.WithContext makes.
type stateRequest struct {
	ctx stateContext
	req http.Request
}

// withNewState returns r with the Middleware's state read now
// (readState), minting a CSRF cookie for a browser without one.
func (h *Handler) withNewState(w http.ResponseWriter, r *http.Request) *http.Request {
	sr := &stateRequest{}
	h.readState(&sr.ctx, w, r, true)
	// WithContext is inlined: its copy of r stays on the stack and is
	// copied into sr, the only allocation.
	sr.req = *r.WithContext(&sr.ctx)
	return &sr.req
}

// readState reads r's session and CSRF cookie into ctx, a context for r:
// the Middleware's work, also done by Require, Execute and Funcs for a
// request that did not pass through the Middleware. With mint, a browser
// without a CSRF cookie is given one on w. ctx is a new one, zero: its
// fields are set one by one, not the whole of it copied over.
func (h *Handler) readState(ctx *stateContext, w http.ResponseWriter, r *http.Request, mint bool) {
	b := h.baseFor(r)
	ctx.Context, ctx.st.base, ctx.st.owner = r.Context(), b, h
	st := &ctx.st
	if h.keys != nil && !underBase(r.URL.Path, b.Path) {
		// An API key: the request is judged by it alone, as a Bearer
		// session token is (bearerRequest).
		if res, ok := h.keys.Authenticate(r); ok {
			st.bearer, st.key, st.keyWait, st.storeErr = true, res.Principal, res.Wait, res.Err
			return
		}
	}
	if h.cfg.Session.Bearer && h.bearerRequest(w, r, b, st) {
		return
	}
	if underBase(r.URL.Path, b.Path) {
		// The handler's own routes: {base}/providers, a sign-in start and
		// most others read no session, and the ones that do read it
		// before they answer (readSession); SessionFrom reads it too, for
		// a wrapper of the handler that asks. They check the CSRF cookie
		// themselves, and make one when they need it (csrfToken), so a
		// script polling {base}/session is not given a cookie per
		// request; a template helper reads it when asked (Funcs).
		st.pending, st.w, st.r = true, w, r
		return
	}
	st.session, st.storeErr = h.readSessionTo(&st.sessionBuf, w, r, b)
	// A page may render forms (Funcs), which need the CSRF token: a
	// browser whose cookie yields none gets a new pair now, before the
	// page starts writing. That is a browser without the cookie, and one
	// whose cookie does not verify: of an earlier format, made under a
	// secret since retired, or forged. Only a page can be given a cookie
	// (GET or HEAD), and only the Middleware has the writer to give it
	// (mint); otherwise the cookie is kept as it came, checked on use.
	c := cookies.Value(r, b.Cookies.CSRF)
	if !mint || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		st.csrfCookie = c
	} else if st.csrfToken = h.site.CSRF.Token(c); st.csrfToken == "" {
		t, c := h.site.CSRF.NewPair()
		b.Cookies.Set(w, b.Cookies.CSRF, c, time.Time{})
		st.csrfToken = t
	}
}

// withState returns r as the Middleware would have passed it on: r
// itself when it did, else r with the session read now. Require and
// Execute use it, so that forgetting the Middleware never turns a
// signed-in user away nor renders a form without its CSRF token.
func (h *Handler) withState(w http.ResponseWriter, r *http.Request) *http.Request {
	if _, ok := r.Context().Value(ctxKey{}).(*reqState); ok {
		return r
	}
	return h.withNewState(w, r)
}

// limiter returns l when it is set, and otherwise the limit called name
// that Config.Limits makes, allowing max attempts per key within window:
// the numbers of the in-memory default.
func (h *Handler) limiter(l limit.Limiter, name string, max int, window time.Duration) limit.Limiter {
	if l != nil {
		return l
	}
	return h.cfg.Limits.Limiter(name, max, window)
}

// underBase reports whether path is one of the handler's own routes.
func underBase(path, base string) bool {
	return len(path) > len(base) && path[len(base)] == '/' && path[:len(base)] == base
}

// stateContext is a request's context carrying the Middleware's reqState
// under ctxKey, as context.WithValue would: one allocation where
// WithValue and the reqState would be two.
type stateContext struct {
	context.Context
	st reqState
}

// Value returns the reqState for ctxKey, and asks the parent otherwise.
func (c *stateContext) Value(key any) any {
	if _, ok := key.(ctxKey); ok {
		return &c.st
	}
	return c.Context.Value(key)
}

// SessionFrom returns the session the Middleware found for the request
// whose context ctx is, or nil when nobody is signed in. Anonymous is the
// zero value: an error reading a session never yields a session
// (GHSA-8fpg-xm3f-6cx3).
func SessionFrom(ctx context.Context) *Session {
	if st, ok := ctx.Value(ctxKey{}).(*reqState); ok {
		st.load(nil)
		return st.session
	}
	return nil
}

// APIKeyFrom returns the API key the request whose context ctx is carries,
// as the Middleware found it (Config.MachineAccess): which key, on whose
// behalf, with which permissions. It is nil when the request carries no
// valid key. A request with a key has no session (SessionFrom is nil),
// and Require, which is for people, answers it 401: guard an API with
// APIKeyFrom(ctx).Can(statement).
func APIKeyFrom(ctx context.Context) *apikey.Principal {
	if st, ok := ctx.Value(ctxKey{}).(*reqState); ok {
		return st.key
	}
	return nil
}

// SessionErr returns why SessionFrom(ctx) has no session when that is not
// simply "nobody is signed in": an error wrapping ErrStoreUnavailable
// when the database could not be read. It is nil otherwise.
func SessionErr(ctx context.Context) error {
	if st, ok := ctx.Value(ctxKey{}).(*reqState); ok {
		st.load(nil)
		return st.storeErr
	}
	return nil
}

// storeUnavailable answers 503 with Retry-After: a database that does not
// answer is usually back within seconds. The body says nothing of the
// database.
func storeUnavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "The service is unavailable. Please try again in a few seconds.", http.StatusServiceUnavailable)
}

// Require lets signed-in users through to next and sends everyone else to
// the sign-in page, with a callbackUrl that brings them back. Without the
// Middleware around it, it reads the session itself.
func (h *Handler) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = h.withState(w, r)
		if SessionFrom(r.Context()) != nil {
			next.ServeHTTP(w, r)
			return
		}
		if errors.Is(SessionErr(r.Context()), ErrStoreUnavailable) {
			// Not signed out: unknown. Inviting the user to sign in
			// again would not help (and would fail the same way).
			storeUnavailable(w)
			return
		}
		if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.bearer {
			unauthorizedBearer(w)
			return
		}
		q := url.Values{"callbackUrl": {r.URL.RequestURI()}}
		http.Redirect(w, r, h.site.SignInPage(r, q), http.StatusFound)
	})
}

// FuncMap returns the template helpers, for parsing templates: signIn,
// signOut, csrfToken and session. At execution time, bind them to the
// request with Funcs (or use Execute).
func (h *Handler) FuncMap() template.FuncMap { return h.Funcs(nil) }

// Funcs returns the template helpers bound to r:
//
//	{{ signIn "github" }}  a "Sign in with GitHub" form posting to the provider's sign-in route
//	{{ signOut }}          a "Sign out" form
//
// signIn and signOut take options as key/value pairs after their
// arguments: label (the button's text), class (its class attribute) and
// callbackUrl (where to land, kept same-origin like every callbackUrl);
// an unknown key is an error when the template runs:
//
//	{{ signIn "github" "label" "Continue with GitHub" "class" "btn" "callbackUrl" "/dashboard" }}
//	{{ signOut "class" "link" }}
//
// The default wording is in the request's language.
//
//	{{ csrfToken }}        the CSRF token, for forms of your own
//	{{ session }}          the *Session, or nil
//
// The forms carry the CSRF token the Middleware made sure of, and
// callbackUrl = the current page. For a request that did not pass through
// the Middleware, the helpers read the session and the CSRF cookie
// themselves; a browser without a CSRF cookie then makes signIn, signOut
// and csrfToken fail with ErrNoCSRFToken (Execute, which can set the
// cookie, never does): a form is never rendered with an empty token.
func (h *Handler) Funcs(r *http.Request) template.FuncMap {
	st := &reqState{}
	if r != nil {
		if s, ok := r.Context().Value(ctxKey{}).(*reqState); ok {
			s.load(nil)
			if s.pending && s.csrfToken == "" && s.csrfCookie == "" {
				s.csrfCookie = cookies.Value(r, s.base.Cookies.CSRF) // not read by the Middleware
			}
			st = s
		} else {
			// No Middleware, and no ResponseWriter to set a cookie on:
			// read what the request carries, make nothing.
			ctx := &stateContext{}
			h.readState(ctx, httpx.Discard{}, r, false)
			st = &ctx.st
		}
	}
	if st.csrfToken == "" && st.csrfCookie != "" {
		st.csrfToken = h.site.CSRF.Token(st.csrfCookie)
	}
	m := helpers.Map(h.site, h.cfg.BasePath, h.flows, r, &st.csrfToken) // internal/helpers
	m["session"] = func() *Session { return st.session }
	return m
}

// ErrNoCSRFToken is the template helpers' error for a request that has no
// CSRF token: one that passed through neither the Middleware nor Execute,
// from a browser without a CSRF cookie. Wrap the application with
// Handler.Middleware, or render with Handler.Execute.
var ErrNoCSRFToken = helpers.ErrNoCSRFToken

// Execute runs t for r with the helpers bound to r. It clones t, so t can
// be shared. Without the Middleware around the application, it reads the
// session and sets the CSRF cookie itself, before writing.
func (h *Handler) Execute(w http.ResponseWriter, r *http.Request, t *template.Template, data any) error {
	c, err := t.Clone()
	if err != nil {
		return err
	}
	return c.Funcs(h.Funcs(h.withState(w, r))).Execute(w, data)
}

// Can reports whether the signed-in user's role in the session's active
// organization holds the statement st, such as "project:delete"
// (Config.Organizations): false with nobody signed in, no active
// organization, or a membership that has ended. During an
// administrator's impersonation it judges the impersonated user, who
// works in no organization: false. It judges a browser's session
// cookie: false for a request judged by its Authorization header (an API
// key, whose permissions APIKeyFrom tells; a Bearer session token). The
// error says that
// organizations are off, that st is not a statement, or that the store
// could not be read.
func (h *Handler) Can(r *http.Request, st string) (bool, error) {
	if h.orgs == nil {
		return false, plugin.ErrOrganizationsOff
	}
	if h.byHeader(r) {
		_, err := permission.Parse(st) // an invalid statement is still an error
		return false, err
	}
	return h.orgs.Can(r, st)
}

// byHeader reports whether r is judged by its Authorization header (a
// Bearer session token, Session.Bearer; an API key, Config.MachineAccess)
// and not by its cookies: as the Middleware judged it, or, for a request
// that did not pass through it, as it would. Can and RequirePermission
// judge a browser's session, its cookie; they must not let a cookie sent
// beside a key or a token stand in for it (the key's permissions are
// APIKeyFrom's, a Bearer session's user is SessionFrom's).
func (h *Handler) byHeader(r *http.Request) bool {
	if !h.cfg.Session.Bearer && h.keys == nil {
		return false // only cookies are read
	}
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h {
		return st.bearer
	}
	// No Middleware: the decision readState would make (an API key
	// outside the base path, then a Bearer header), from the headers
	// alone: no key is looked up or counted, no session read.
	if h.keys != nil && !underBase(r.URL.Path, h.baseFor(r).Path) && h.keys.Carries(r) {
		return true
	}
	if values := r.Header["Authorization"]; h.cfg.Session.Bearer && len(values) > 0 {
		_, ok := cookies.BearerToken(values)
		return ok
	}
	return false
}

// RequirePermission returns middleware that serves only the requests
// whose user may do st in their active organization (Can), and answers
// the others 401 or 403 JSON saying why. Like Can, it judges a browser's
// session cookie: a request judged by its Authorization header (an API
// key, a Bearer session token) is answered 401. It panics when st is not
// a statement.
func (h *Handler) RequirePermission(st string) func(http.Handler) http.Handler {
	if h.orgs == nil {
		permission.MustSet(st) // panics as with organizations on
		return func(http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				httpx.WriteJSON(w, http.StatusNotImplemented, map[string]string{"error": string(Configuration), "reason": plugin.ErrOrganizationsOff.Error()})
			})
		}
	}
	require := h.orgs.Require(st)
	return func(next http.Handler) http.Handler {
		inner := require(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h.byHeader(r) {
				// Nobody signed in with a cookie for this request: 401, as
				// for a request without a session.
				w.Header().Set("Cache-Control", "no-store")
				httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(SessionRequired)})
				return
			}
			inner.ServeHTTP(w, r)
		})
	}
}
