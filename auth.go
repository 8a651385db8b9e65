package gatehouse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/logclip"
	"github.com/gatehouse-auth/gatehouse/internal/lru"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Config configures a Handler. Its zero values are the defaults; only
// Providers and Secret (or Development) must be set.
type Config struct {
	// Providers are the ways to sign in, in the order the sign-in page shows them.
	Providers []providers.Provider
	// Secret seals sessions and check cookies: one or more secrets,
	// newest first. The newest seals; all are tried when opening, so a
	// secret can be rotated by putting a new one in front. Each must be
	// at least 32 bytes (e.g. `openssl rand -base64 33`). AUTH_SECRET
	// (comma-separated) when loaded with FromEnv.
	Secret []string
	// URL is the public URL of the auth routes, e.g.
	// "https://app.example.com/auth" (AUTH_URL). Its path, when not empty
	// or "/", is the base path. Empty: the origin is taken from each
	// request (Host, and X-Forwarded-Proto/Host only with TrustHost).
	URL string
	// BasePath is where the routes live when URL has no path: "/auth" by
	// default.
	BasePath string
	// TrustHost makes the handler believe X-Forwarded-Host and
	// X-Forwarded-Proto when URL is empty (AUTH_TRUST_HOST). Set it only
	// behind a proxy that sets them.
	TrustHost bool
	// Session configures sessions.
	Session SessionConfig
	// TwoFactor turns on two-factor sign-in: twofactor.SignIn{…}, whose
	// package only a program that sets it links. Nil: off.
	TwoFactor TwoFactor
	// SelfService turns on the signed-in user's own routes: the linked
	// accounts ({base}/accounts) and the sessions ({base}/sessions), as
	// JSON and built-in pages: selfservice.Routes{}, whose package only a
	// program that sets it links. Nil: off, and those routes answer 404.
	// It needs an Adapter.
	SelfService SelfService
	// Organizations turns on organizations, their members, roles and
	// invitations, under {base}/organizations:
	// organization.Enable(organization.Config{…}), whose routes only a
	// program that sets it links (docs/organizations.md). Nil: off. The
	// Adapter must be an organization.Store (the built-in ones are).
	Organizations Organizations
	// MachineAccess turns on API keys ({base}/api-keys, and keys read by
	// the Middleware: APIKeyFrom) and, with its Tokens, signed access
	// tokens for other services ({base}/token and {base}/jwks):
	// apikey.Enable(apikey.Config{…}), whose routes only a program that
	// sets it links. Nil: off. It needs an Adapter that stores them (the
	// built-in adapters do).
	MachineAccess MachineAccess
	// Callbacks customise the flow; nil fields keep the defaults.
	Callbacks Callbacks
	// Events are told what happened; nil fields are skipped.
	Events Events
	// Admin turns on the administrators' routes under {base}/admin, bans
	// and impersonation: admin.Enable(admin.Config{…}), whose routes only
	// a program that sets it links. Nil: off. It needs an Adapter that is
	// an admin.Store, as the built-in ones are.
	Admin Admin
	// Adapter stores users, accounts and sessions. With one, sessions use
	// the database strategy unless Session.Strategy says otherwise.
	Adapter adapter.Adapter
	// Pages replaces built-in pages with the application's own routes.
	Pages Pages
	// Theme styles the built-in pages.
	Theme pages.Theme
	// Language, when set, returns the language tag of the built-in pages
	// for a request, e.g. from the user's profile or a cookie; "" (or a
	// language there are no messages for) falls back to the request's
	// Accept-Language header, then to English. English and German ship;
	// pages.AddMessages adds languages and overrides messages.
	Language func(r *http.Request) string
	// RedirectProxyURL is the stable redirect proxy of preview deployments
	// (AUTH_REDIRECT_PROXY_URL). Setting it adds the state check.
	RedirectProxyURL string
	// UseSecureCookies forces the __Host- cookie prefix and the Secure
	// attribute on or off. Default: on when URL is https.
	UseSecureCookies *bool
	// AuthJSCookieNames names the cookies as Auth.js does on https
	// (__Secure-authjs.session-token, __Host-authjs.csrf-token, …), so an
	// Auth.js front end on the same site shares the session (its JWE key
	// is derived from the cookie's name), instead of Gatehouse's default
	// of the __Host- prefix for every cookie. The trade-off: a sibling
	// subdomain, or a plain-http page of the host, can set a __Secure-
	// cookie (cookie tossing) but never a __Host- one. Without TLS the
	// names are the same either way.
	AuthJSCookieNames bool
	// HTTPClient makes every call to providers. Default: a client with
	// bounded reads that does not follow redirects. Whatever a given
	// client does, the requests that carry the client's credentials or
	// the user's tokens (token, PAR, Handler.Client) never follow one.
	HTTPClient *http.Client
	// ProviderTimeout bounds each call to a provider (discovery, JWKS,
	// token, userinfo, refresh), reading the whole answer included, so a
	// provider that trickles its answer a byte at a time is cut off too.
	// Default: 10 seconds, or the Timeout of a given HTTPClient when it
	// has one. When set, it replaces a given HTTPClient's Timeout.
	ProviderTimeout time.Duration
	// Logger receives one line per failure with what went wrong at which
	// step. Secrets and tokens are never logged. Default: slog.Default().
	Logger *slog.Logger
	// ProviderSignOut makes sign-out also end the user's session at the
	// provider they signed in with, when its metadata has an
	// end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0): after
	// the local sign-out the browser is sent there with id_token_hint
	// (when the ID token is known: stored on the account with an Adapter;
	// with JWT sessions only if the JWT callback keeps it in
	// Token.Extra["id_token"]), client_id, state and a
	// post_logout_redirect_uri of {base}/signout/callback/{provider},
	// which must be registered at the provider.
	ProviderSignOut bool
	// RateLimit limits, per client address, sign-in starts (POST
	// {base}/signin/{provider}), callbacks and passkey ceremonies: past
	// it the answer is 429 with Retry-After. Nil: in this process's
	// memory, DefaultRateLimit requests per minute per address, which no
	// person reaches; limit.None{} switches it off. With several
	// processes, give them one shared limiter (redislimit.Limiter). The
	// credentials and e-mail providers have their own, stricter limits.
	RateLimit limit.Limiter
	// ClientIP returns the client address of a request, for RateLimit
	// and for every provider without a ClientIP of its own. Nil: the
	// address TrustedProxies report, or the host of r.RemoteAddr.
	ClientIP func(r *http.Request) string
	// TrustedProxies are the reverse proxies in front of the application,
	// as addresses ("10.0.0.5") or CIDR prefixes ("10.0.0.0/8"). For a
	// request from one of them, the client address every limit counts is
	// the one they report in ClientIPHeader, read from the right past the
	// trusted proxies (what is further left was written by the client).
	// Without them, behind a proxy every visitor shares its address.
	TrustedProxies []string
	// ClientIPHeader is the header TrustedProxies set: "X-Forwarded-For"
	// (the default) or "Forwarded", which list the chain, or one that
	// holds one address, such as "X-Real-IP".
	ClientIPHeader string
	// Limits makes every limit the handler keeps unless one is set on its
	// own field: RateLimit; the credentials, e-mail and password-account
	// providers' attempt and sending limits; TwoFactor's PerPending and
	// PerUser; and the log of used passkey challenges. Each gets its
	// default numbers and a name of its own, so swapping the backend
	// changes where the counts live and nothing else. With several
	// instances, one setting shares them all:
	// Limits: redislimit.Backend{Client: rdb}. Nil: limit.InMemory{},
	// this process's memory.
	Limits limit.Backend
	// Getenv reads the environment for the defaults of providers that
	// leave their client id, secret or issuer empty (AUTH_<ID>_ID,
	// AUTH_<ID>_SECRET, AUTH_<ID>_ISSUER, as Auth.js): os.Getenv when nil.
	Getenv func(key string) string
	// ClockSkew is the tolerance on ID token times: 30 seconds by default.
	ClockSkew time.Duration
	// Development allows a missing or short secret (a random one is made,
	// so sessions end at restart) and says so in the log. Never in
	// production.
	Development bool
}

// Strategy is where sessions live.
type Strategy string

// Session strategies.
const (
	// StrategyJWT keeps the session in an encrypted cookie (JWE): no
	// database read per request. The default without an adapter.
	StrategyJWT Strategy = "jwt"
	// StrategyDatabase keeps an opaque token in the cookie and the
	// session in the adapter. The default with one.
	StrategyDatabase Strategy = "database"
)

// SessionConfig configures sessions.
type SessionConfig struct {
	// Strategy defaults to jwt without an adapter, database with one.
	Strategy Strategy
	// MaxAge is how long a session lives without use: 30 days by default.
	MaxAge time.Duration
	// UpdateAge is how often a session's expiry is pushed forward when it
	// is used: once a day by default, not on every request.
	UpdateAge time.Duration
	// Bearer makes the Middleware accept the session token in an
	// "Authorization: Bearer <token>" header (RFC 6750 §2.1), for API
	// calls from a server such as a Next.js front end: the sealed JWE
	// of the JWT strategy, or the opaque session token of the database
	// strategy, as the session cookie holds it (see Handler.SessionToken).
	// A request with a Bearer header is judged by that header alone: its
	// cookies are not read, no cookie is written, and Require answers 401
	// with WWW-Authenticate instead of redirecting. The auth routes
	// themselves (GET {base}/session, sign-out, CSRF checks) only ever read
	// cookies. A token in the query string is never accepted.
	Bearer bool
	// CookieCache keeps a copy of a database session in a short-lived
	// sealed cookie, read without a trip to the database (Better Auth's
	// cookieCache). Off by default.
	CookieCache CookieCache
	// FreshAge is how recent a sign-in must be for the changes a stolen
	// session cookie must not make on its own: turning two-factor sign-in
	// on, unlinking an account, making or rotating an API key, deleting
	// an organization. An older session is asked to sign in again (403
	// fresh_sign_in). Default: 24 hours, as Better Auth's freshAge.
	FreshAge time.Duration
}

// CookieCache is SessionConfig.CookieCache. With it, a database session
// is read from the database at most once per MaxAge per browser: in
// between, the sealed copy answers (encrypted and authenticated like the
// session cookie, and bound to that browser's session token, so it
// neither outlives a sign-out on this browser nor moves to another).
// The price: a session revoked elsewhere (another browser's sign-out,
// back-channel logout, a deleted user) is still accepted by this browser
// for up to MaxAge, and a changed name or picture shows after MaxAge.
type CookieCache struct {
	// Enabled turns the cache on (database strategy only).
	Enabled bool
	// MaxAge is how long a copy is used: 5 minutes by default.
	MaxAge time.Duration
}

// Pages are the application's own routes for the built-in pages (absolute
// paths, or URLs on the origin of Config.URL, without a query: New refuses
// anything else). Empty fields keep the built-in page. The routes get the
// query the built-in page would have read: callbackUrl and error for
// SignIn, error and code for Error, callbackUrl for NewUser. For
// VerifyRequest and the pages from Accounts on, a GET of the built-in
// page answers 303 to the route with the query; their POST routes stay, for the
// application's forms, and a browser form's answer that would be the
// replaced page goes to the route.
type Pages struct {
	SignIn        string
	SignOut       string
	Error         string
	VerifyRequest string
	// NewUser is where a user goes after their first sign-in.
	NewUser string
	// Accounts is the signed-in user's linked accounts (GET
	// {base}/accounts, with Config.SelfService).
	Accounts string
	// Sessions is the signed-in user's sessions (GET {base}/sessions,
	// with Config.SelfService).
	Sessions string
	// TwoFactorSetup is the two-factor settings (GET {base}/two-factor/setup).
	TwoFactorSetup string
	// TwoFactor is a sign-in's code step (GET {base}/two-factor); a
	// refused code comes back with error=invalid_code.
	TwoFactor string
	// SignUp, ForgotPassword, ResetPassword and ChangePassword are the
	// password-account forms (GET {base}/{id}/sign-up, forgot, reset,
	// change); a refused form comes back with error=PasswordForm (and a
	// reset's token and email).
	SignUp, ForgotPassword, ResetPassword, ChangePassword string
	// CheckEmail is the "check your e-mail" answer of a sign-up or forgot
	// POST, with type=sign-up or type=forgot.
	CheckEmail string
}

// SignInParams is what the SignIn callback sees.
type SignInParams struct {
	User    profile.User
	Account *account.Account
	// Profile is the provider's profile as its type (for OAuth providers).
	Profile any
	Request *http.Request
	// VerificationRequest is true when an e-mail provider asks before
	// sending a sign-in link (the callback runs again when the link is
	// followed). Refusing then sends no link, and the visitor sees the
	// same "check your e-mail" page as anyone: the form does not tell who
	// may sign in.
	VerificationRequest bool
}

// Callbacks let the application decide and shape. Each runs in the request
// that needs it; an error it returns ends that request with an error page.
type Callbacks struct {
	// SignIn decides whether the user may sign in. Return false to refuse
	// (AccessDenied), or a same-origin URL to send the user there instead.
	SignIn func(ctx context.Context, p SignInParams) (allow bool, redirectTo string, err error)
	// Redirect chooses where to send the browser after sign-in or
	// sign-out. url is the requested callback URL, baseURL the origin.
	// The default allows relative paths and the origin's own URLs only;
	// a callback's answer is checked the same way.
	Redirect func(url, baseURL string) string
	// JWT shapes the session token at sign-in and on updates. Return nil
	// to end the session.
	JWT func(ctx context.Context, p JWTParams) (*Token, error)
	// Session shapes what GET {base}/session and SessionFrom return.
	Session func(ctx context.Context, p SessionParams) (*Session, error)
}

// Events are told what happened, after it happened. They run in the
// request; a panic is not recovered, an error is impossible by design.
type Events struct {
	SignIn      func(ctx context.Context, user profile.User, acct *account.Account, isNewUser bool)
	SignOut     func(ctx context.Context, s *Session)
	CreateUser  func(ctx context.Context, user profile.User)
	LinkAccount func(ctx context.Context, user profile.User, acct account.Account)
	// UnlinkAccount is told of an account unlinked through
	// POST {base}/accounts/unlink/{provider}.
	UnlinkAccount func(ctx context.Context, user profile.User, acct account.Account)
	// RevokeSessions is told of sessions ended through
	// POST {base}/sessions/revoke or revoke-others: how many, and whose.
	RevokeSessions func(ctx context.Context, user profile.User, n int)
	// TwoFactor is told of changes to a user's two-factor sign-in, of
	// backup codes used and of codes refused (TwoFactorChange).
	TwoFactor func(ctx context.Context, user profile.User, change TwoFactorChange)
	// PasswordReset is told of a password set through a reset link of a
	// password-accounts provider (providers/passwordaccount); the user's
	// sessions it ended are told to RevokeSessions.
	PasswordReset func(ctx context.Context, user profile.User)
	// PasswordChange is told of a password changed by its signed-in
	// user; the other sessions it ended are told to RevokeSessions.
	PasswordChange func(ctx context.Context, user profile.User)
	Session        func(ctx context.Context, s *Session)
	// Organization is told of every change made through the organization
	// routes (Config.Organizations).
	Organization func(ctx context.Context, c organization.Change)
	// Admin is told of every administrator action (Config.Admin): who
	// did what to whom, when, from where.
	Admin func(ctx context.Context, e admin.Event)
	// Failure is told of the failures the handler reports to a browser
	// (the type and code of the ?error= it sends, with provider and step;
	// TooManyRequests for a refused rate limit), for metrics and audit
	// logs. Err's cause is for logs only: it may hold a provider's text.
	// A flood of one kind (the same type, code, provider and step within
	// 10 s) is told once at once and then once as a summary whose Repeats
	// counts the rest, so that counters add max(1, err.Repeats).
	Failure func(ctx context.Context, err *Error)
	// Refresh is told of every refresh grant sent to a provider (not of
	// refreshed tokens taken from another process or request): err is nil
	// when the provider answered with new tokens.
	Refresh func(ctx context.Context, provider string, err error)
	// APIKey is told of API keys made, rotated and revoked.
	APIKey func(ctx context.Context, e apikey.Event)
}

// defaults.
const (
	defaultMaxAge    = 30 * 24 * time.Hour
	defaultUpdateAge = 24 * time.Hour
	defaultFreshAge  = 24 * time.Hour
	defaultSkew      = 30 * time.Second
	// defaultCookieCacheAge is CookieCache.MaxAge's default.
	defaultCookieCacheAge = 5 * time.Minute
)

// FromEnv fills the fields of cfg that are empty from the Auth.js
// environment variables: AUTH_SECRET (comma-separated, newest first),
// AUTH_URL, AUTH_TRUST_HOST and AUTH_REDIRECT_PROXY_URL.
//
// AUTH_SECRET_1, AUTH_SECRET_2 and AUTH_SECRET_3 are read as Auth.js
// reads them, so that a Go API and a Next.js front end given the same
// environment hold the same list: AUTH_SECRET_3, _2, _1 (those set), then
// AUTH_SECRET. The first of that list seals new sessions.
func (cfg Config) FromEnv() Config {
	if len(cfg.Secret) == 0 {
		for _, name := range []string{"AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1"} {
			if s := os.Getenv(name); s != "" {
				cfg.Secret = append(cfg.Secret, s)
			}
		}
		for _, s := range strings.Split(os.Getenv("AUTH_SECRET"), ",") {
			if s = strings.TrimSpace(s); s != "" {
				cfg.Secret = append(cfg.Secret, s)
			}
		}
	}
	if cfg.URL == "" {
		cfg.URL = os.Getenv("AUTH_URL")
	}
	if !cfg.TrustHost {
		v := strings.ToLower(os.Getenv("AUTH_TRUST_HOST"))
		cfg.TrustHost = v == "true" || v == "1"
	}
	if cfg.RedirectProxyURL == "" {
		cfg.RedirectProxyURL = os.Getenv("AUTH_REDIRECT_PROXY_URL")
	}
	return cfg
}

// normalize validates cfg and fills its defaults.
func (cfg Config) normalize() (Config, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Logger = logclip.Wrap(cfg.Logger) // values from requests and providers, cut
	if cfg.Session.CookieCache.Enabled && cfg.Session.CookieCache.MaxAge <= 0 {
		cfg.Session.CookieCache.MaxAge = defaultCookieCacheAge
	}
	if cfg.Session.MaxAge <= 0 {
		cfg.Session.MaxAge = defaultMaxAge
	}
	if cfg.Session.FreshAge <= 0 {
		cfg.Session.FreshAge = defaultFreshAge
	}
	if cfg.Session.UpdateAge <= 0 {
		cfg.Session.UpdateAge = defaultUpdateAge
	}
	if cfg.Session.UpdateAge > cfg.Session.MaxAge {
		return cfg, &ConfigError{Field: "Session.UpdateAge", Reason: "is longer than Session.MaxAge"}
	}
	switch cfg.Session.Strategy {
	case "":
		cfg.Session.Strategy = StrategyJWT
		if cfg.Adapter != nil {
			cfg.Session.Strategy = StrategyDatabase
		}
	case StrategyJWT:
	case StrategyDatabase:
		if cfg.Adapter == nil {
			return cfg, &ConfigError{Field: "Session.Strategy", Reason: `"database" needs an Adapter`}
		}
	default:
		return cfg, &ConfigError{Field: "Session.Strategy", Reason: fmt.Sprintf("unknown strategy %q (want jwt or database)", cfg.Session.Strategy)}
	}
	if cfg.Session.CookieCache.Enabled && cfg.Session.Strategy != StrategyDatabase {
		return cfg, &ConfigError{Field: "Session.CookieCache", Reason: "is for database sessions; a JWT session is read from its cookie already"}
	}
	if cfg.ClockSkew <= 0 {
		cfg.ClockSkew = defaultSkew
	}
	var err error
	if cfg.Secret, err = sessions.CheckSecrets(cfg.Secret, cfg.Development, cfg.Logger); err != nil {
		return cfg, err
	}
	if cfg.URL, cfg.BasePath, err = site.CheckURL(cfg.URL, cfg.BasePath, cfg.Development); err != nil {
		return cfg, err
	}
	if cfg.RedirectProxyURL != "" {
		if u, err := url.Parse(cfg.RedirectProxyURL); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return cfg, &ConfigError{Field: "RedirectProxyURL", Reason: "is not an absolute http(s) URL"}
		}
	}
	return cfg, nil
}

// DefaultHTTPClient returns the client Gatehouse calls providers with
// when Config.HTTPClient is nil: each call bounded by timeout (10 s when
// zero), no redirects followed, answers cut at providers.MaxResponseBytes.
// Start from it to wrap its transport (tracing, a proxy) and keep those
// bounds.
func DefaultHTTPClient(timeout time.Duration) *http.Client {
	c, _ := rp.HTTPClient(nil, timeout)
	return c
}

// cachedHandlers is made on the first Auth call (no work at start-up for
// programs that use New) and keeps the Handlers Auth builds, so that the
// seed's entry point does not rebuild keys, routes and discovery caches on
// every call.
var cachedHandlers = sync.OnceValue(newHandlerCache)

// Auth answers one request with the Handler for cfg, in the shape of the
// Auth.js entry point (a request and a configuration in, a response out).
//
// The Handler is built on the first call with a Config and kept, up to
// 16, the least recently used forgotten first. The rule, as for a
// tls.Config: a Config passed to Auth, and what it refers to (its
// Providers and Secret slices and the providers in them), must not be
// modified afterwards. Build it once, at start-up or in a package
// variable, and pass that value (or copies of it) on every call.
//
// Configs are told apart cheaply, without reading them whole: the
// Providers and Secret slices by identity (a copy of a Config shares
// them; a Config built anew does not), the plain fields by value,
// HTTPClient, Logger, Adapter and the limiters with == (a pointer by
// identity), and the functions (Callbacks, Events, ClientIP, Getenv) by
// their code (reflect.Value.Pointer). So two closures made by one
// function literal at one place (in a loop, or by one helper function),
// or two method values of one method, are one function to Auth: two
// Configs that share their Providers and Secret slices and differ only in
// what such closures capture share one Handler. Give each such Config slices of
// its own, or use New. A Config built anew on each call builds a new
// Handler on each call (losing the discovery and key caches); Auth logs a
// warning the first time it forgets a Handler. An Adapter or limiter of a
// type == cannot compare (a struct holding a slice or a map) gets a
// Handler built on every call: pass a pointer.
//
// An invalid configuration answers 500 with a JSON message, and is logged.
//
// Prefer New in a Go program: it returns errors at start-up, and its
// Handler needs no lookup.
func Auth(r *http.Request, cfg Config) *http.Response {
	h, err := cachedHandlers().get(&cfg)
	var w httpx.Response
	if err != nil {
		logger := cfg.Logger
		if logger == nil {
			logger = slog.Default()
		}
		logger.Error("gatehouse: invalid configuration", "err", err)
		httpx.WriteJSON(&w, http.StatusInternalServerError, map[string]string{
			"message": "There is a problem with the server configuration. Check the server logs for more information.",
		})
	} else {
		h.ServeHTTP(&w, r)
	}
	return w.Result(r)
}

// errNoProviders is returned by New when the list is empty.
var errNoProviders = errors.New("no providers")

// checkLook refuses page routes, a theme or a provider's style the
// built-in pages could not use (site.CheckLook).
func (h *Handler) checkLook() error {
	var styles []site.Styled
	for _, id := range h.order {
		if p, ok := h.oauthProvider(id); ok { // e-mail and credentials providers have no Style
			styles = append(styles, site.Styled{ID: id, Style: p.Config().Style})
		}
	}
	return site.CheckLook(site.Pages(h.cfg.Pages), h.cfg.URL, h.cfg.Theme, styles)
}

// getenv reads the environment through Config.Getenv, os.Getenv by default.
func (h *Handler) getenv(key string) string {
	if h.cfg.Getenv != nil {
		return h.cfg.Getenv(key)
	}
	return os.Getenv(key)
}

// ErrorType is the public kind of a failure: the value of ?error= on the
// error and sign-in pages. The Auth.js types keep their Auth.js names, so
// front ends written for Auth.js understand them; the others name
// failures that Auth.js reports as Configuration.
//
// An ErrorType is itself an error, so errors.Is(err, gatehouse.InvalidCheck)
// tells the kind of any error the handler reports.
type ErrorType = autherr.Type

// Error is a failure in the sign-in flow: what kind (Type), a stable
// specific code for the error page and for support (Code, e.g.
// "state_mismatch" or "invalid_grant"), where (Provider, Step) and why
// (Err, logged but never shown to the user). errors.Is(err, t) reports
// whether it is of type t.
type Error = autherr.Error

// The error types; see internal/autherr for the meaning of each.
const (
	Configuration             = autherr.Configuration             // the server is misconfigured
	AccessDenied              = autherr.AccessDenied              // the SignIn callback said no
	Verification              = autherr.Verification              // an e-mail link is used, expired or unknown
	MissingCSRF               = autherr.MissingCSRF               // a POST without a valid CSRF token
	InvalidCheck              = autherr.InvalidCheck              // state, PKCE, nonce or iss check failed
	OAuthSignin               = autherr.OAuthSignin               // the authorization request could not be built
	OAuthCallbackError        = autherr.OAuthCallbackError        // the provider answered with an error, or a malformed response
	OAuthAccountNotLinked     = autherr.OAuthAccountNotLinked     // the e-mail belongs to a user linked to another provider
	OAuthProfileParseError    = autherr.OAuthProfileParseError    // the profile could not be read or mapped
	InvalidIDToken            = autherr.InvalidIDToken            // the ID token failed verification
	TokenExchangeFailed       = autherr.TokenExchangeFailed       // the token endpoint refused the code or failed
	UserinfoFailed            = autherr.UserinfoFailed            // the userinfo endpoint failed or disagreed with the ID token
	ProviderUnavailable       = autherr.ProviderUnavailable       // discovery or keys could not be fetched
	UnknownProvider           = autherr.UnknownProvider           // no provider has that id
	CallbackRouteError        = autherr.CallbackRouteError        // a callback failed in an application callback
	SessionRequired           = autherr.SessionRequired           // the page needs a signed-in user
	AdapterError              = autherr.AdapterError              // the database failed
	CredentialsSignin         = autherr.CredentialsSignin         // Authorize refused the credentials
	EmailSignInError          = autherr.EmailSignInError          // the typed e-mail address is malformed
	EmailSignin               = autherr.EmailSignin               // the sign-in e-mail could not be sent
	TooManyRequests           = autherr.TooManyRequests           // too many failed attempts: wait (429, Retry-After)
	WebAuthnVerificationError = autherr.WebAuthnVerificationError // a passkey response failed verification
	AccountNotLinked          = autherr.AccountNotLinked          // a passkey cannot be tied to the user
	// AccountLinkMismatch: a sign-in that was not started by the session
	// this browser holds. Nothing is linked and the session is left as it
	// was (finish.go).
	AccountLinkMismatch = autherr.AccountLinkMismatch
	// TwoFactorFailed: the second step of a two-factor sign-in expired or
	// was not this browser's; the user signs in again (internal/twofactorflow).
	TwoFactorFailed = autherr.TwoFactorFailed
	// EmailUnverified: a right password for an address not confirmed yet
	// (providers/passwordaccount); a new confirmation link was sent.
	EmailUnverified = autherr.EmailUnverified
	// Banned: an administrator banned the user (Config.Admin); every
	// sign-in is refused while the ban lasts.
	Banned = autherr.Banned
)

// ConfigError is returned by New for an invalid configuration. Field names
// the configuration field; Provider the provider, when it is about one.
// errors.Is(err, Configuration) is true for it.
type ConfigError = autherr.ConfigError

// providerConfigError turns a provider package's error into a ConfigError.
func providerConfigError(id string, err error) error {
	ce := &ConfigError{Provider: id, Err: err}
	var pe *providers.ConfigError
	if errors.As(err, &pe) {
		ce.Field, ce.Reason = pe.Field, pe.Reason
	}
	return ce
}

// TwoFactor turns on two-factor sign-in, as Config.TwoFactor:
// twofactor.SignIn is the one implementation. Users turn it on for
// themselves at {base}/two-factor/setup.
type TwoFactor interface{ twofactorflow.Feature }

// SelfService turns on the signed-in user's account and sessions
// routes, as Config.SelfService: selfservice.Routes is the one
// implementation.
type SelfService interface{ plugin.SelfServiceFeature }

// Organizations turns on organizations, as Config.Organizations:
// organization.Enable returns the one implementation.
type Organizations interface{ plugin.OrganizationsFeature }

// Admin turns on the administrators' routes and bans, as Config.Admin:
// admin.Enable returns the one implementation.
type Admin interface{ plugin.AdminFeature }

// MachineAccess turns on API keys and service tokens, as
// Config.MachineAccess: apikey.Enable returns the one implementation.
type MachineAccess interface{ plugin.MachineAccessFeature }

// TwoFactorChange is what changed in a user's two-factor sign-in, for
// Events.TwoFactor (twofactor.Change).
type TwoFactorChange = twofactorcore.Change

// The changes Events.TwoFactor is told of.
const (
	TwoFactorEnabled     = twofactorcore.Enabled
	TwoFactorDisabled    = twofactorcore.Disabled
	TwoFactorNewBackup   = twofactorcore.BackupCodesRegenerated
	TwoFactorBackupUsed  = twofactorcore.BackupCodeUsed
	TwoFactorCodeRefused = twofactorcore.CodeRefused
)

// handlerCacheSize bounds the Handlers Auth keeps.
const handlerCacheSize = 16

// configKey tells Configs apart for Auth's cache, cheaply and without
// reading any memory the language does not let a program read: it is a
// comparable value built field by field from a Config, so that a lookup
// is one map access. What each field is compared by:
//
//   - the Providers, Secret and TrustedProxies slices: by identity, the address of the
//     first element and the length (a copy of the Config shares them; a
//     Config built anew, with slice literals of its own, does not);
//   - strings, booleans, durations and the structs made of them (Session,
//     Pages, Theme): by value; UseSecureCookies by the value it points to;
//   - HTTPClient and Logger: by pointer;
//   - Adapter, RateLimit, Limits, TwoFactor, SelfService, Organizations,
//     Admin and MachineAccess: with ==, so a
//     pointer by identity and a comparable struct by value (a value ==
//     cannot compare makes the Config uncacheable: see keyOf);
//   - functions (Callbacks, Events, ClientIP, Getenv, Language): by code pointer
//     (reflect.Value.Pointer), so two closures made by one function
//     literal at one place, or two method values of one method, are the
//     same function here (the compiler may copy a literal into each place
//     its function is inlined; the rule does not count on it).
//
// The key holds values, Go pointers and code addresses: the pointers (and
// the interface values) keep what they identify alive, and code is never
// freed, so no address in a key can be given to another value while the
// key is in the cache. TestConfigKeyCoversEveryField checks that
// every field of Config changes the key.
type configKey struct {
	providers  *providers.Provider
	nProviders int
	secret     *string
	nSecret    int

	url, basePath, redirectProxyURL                        string
	trustHost, authJSCookieNames, providerSignOut, develop bool
	secureCookies                                          int8 // 0: nil, 1: false, 2: true
	session                                                SessionConfig
	pages                                                  Pages
	theme                                                  pages.Theme
	providerTimeout, clockSkew                             time.Duration
	httpClient                                             *http.Client
	logger                                                 *slog.Logger

	adapter, rateLimit, twoFactor, limits            any
	selfService, organizations, admin, machineAccess any

	trustedProxies  *string
	nTrustedProxies int
	clientIPHeader  string

	funcs [22]uintptr // Callbacks, Events, ClientIP, Getenv, Language: code pointers
}

// keyOf returns cfg's key, and false when cfg cannot be cached: one of
// its interface values (Adapter, a limiter) is of a type == cannot compare
// (a struct holding a slice, a map or a function), which would make the
// map lookup panic.
func keyOf(cfg *Config) (configKey, bool) {
	k := configKey{
		providers: first(cfg.Providers), nProviders: len(cfg.Providers),
		secret: first(cfg.Secret), nSecret: len(cfg.Secret),
		url: cfg.URL, basePath: cfg.BasePath, redirectProxyURL: cfg.RedirectProxyURL,
		trustHost: cfg.TrustHost, authJSCookieNames: cfg.AuthJSCookieNames, providerSignOut: cfg.ProviderSignOut, develop: cfg.Development,
		session: cfg.Session, twoFactor: cfg.TwoFactor, selfService: cfg.SelfService,
		pages: cfg.Pages, theme: cfg.Theme, providerTimeout: cfg.ProviderTimeout, clockSkew: cfg.ClockSkew,
		httpClient: cfg.HTTPClient, logger: cfg.Logger,
		adapter: cfg.Adapter, rateLimit: cfg.RateLimit,
		limits: cfg.Limits, organizations: cfg.Organizations, machineAccess: cfg.MachineAccess, admin: cfg.Admin,
		trustedProxies: first(cfg.TrustedProxies), nTrustedProxies: len(cfg.TrustedProxies), clientIPHeader: cfg.ClientIPHeader,
	}
	if s := cfg.UseSecureCookies; s != nil {
		k.secureCookies = 1
		if *s {
			k.secureCookies = 2
		}
	}
	c, e := &cfg.Callbacks, &cfg.Events
	for i, f := range [...]any{c.SignIn, c.Redirect, c.JWT, c.Session,
		e.SignIn, e.SignOut, e.CreateUser, e.LinkAccount, e.UnlinkAccount, e.RevokeSessions, e.TwoFactor,
		e.PasswordReset, e.PasswordChange, e.Session, e.Failure, e.Refresh, e.Organization, e.APIKey, e.Admin,
		cfg.ClientIP, cfg.Getenv, cfg.Language} {
		k.funcs[i] = reflect.ValueOf(f).Pointer() // 0 for a nil function
	}
	for _, v := range [...]any{k.adapter, k.rateLimit, k.twoFactor, k.limits, k.selfService, k.organizations, k.admin, k.machineAccess} {
		if v != nil && !reflect.ValueOf(v).Comparable() {
			return k, false
		}
	}
	return k, true
}

// first returns the address of s's first element, nil when s is empty.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// handlerCache is Auth's cache: at most handlerCacheSize Handlers by
// configKey, the least recently used evicted first (internal/lru).
type handlerCache struct {
	lru    *lru.Cache[configKey, *Handler]
	warned atomic.Bool // a warning was logged
}

func newHandlerCache() *handlerCache {
	return &handlerCache{lru: lru.New[configKey, *Handler](handlerCacheSize)}
}

// get returns the Handler for cfg, built with New on first use. A failed
// build is not kept.
func (c *handlerCache) get(cfg *Config) (*Handler, error) {
	k, ok := keyOf(cfg)
	if !ok {
		return New(*cfg) // uncacheable: see keyOf
	}
	h, evicted, err := c.lru.Get(k, func() (*Handler, error) { return New(*cfg) })
	if evicted && c.warned.CompareAndSwap(false, true) {
		h.cfg.Logger.Warn("gatehouse: Auth has built more Handlers than it keeps; pass the same Config value on every call (see Auth), or use New",
			"kept", handlerCacheSize)
	}
	return h, err
}
