// Package plugin is how a provider kind or a feature whose code the root
// package does not import plugs into a Handler: the package the
// application imports to configure it gives its configuration a method
// that gatehouse.New calls with the Handler's Env. The providers
// (providers/passkey, providers/email, providers/passwordaccount) build
// their flows (Provider.NewFlow); two-factor sign-in
// (twofactor.SignIn) builds its flow (twofactorflow.Feature). A
// program that configures none of them links none of their code nor
// their dependencies (go-webauthn, an SMTP client, TOTP and QR codes).
//
// The methods are exported only because Go has no other way for one
// package to implement another's interface; applications never call
// them.
package plugin

import (
	"context"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/finish"
	"github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Provider is a provider whose flow its own package builds.
type Provider interface {
	providers.Provider
	// NewFlow checks the provider against the Handler's configuration
	// and returns its flow. An error is a *autherr.ConfigError, or a
	// *providers.ConfigError naming the provider's field.
	NewFlow(e *Env) (Flow, error)
}

// Env is the Handler as a provider's flow is built for it: its parts
// built before the flows, and the configuration they need.
type Env struct {
	// Finisher ends the flow's sign-ins; through its Site the flow checks
	// and answers requests.
	Finisher *finish.Finisher
	// Sealer seals a flow's state into its cookies.
	Sealer *checks.Sealer
	// Adapter is Config.Adapter, nil without a database.
	Adapter adapter.Adapter
	Logger  *slog.Logger
	// URL is Config.URL ("" when the origin is each request's); BasePath
	// the routes' path, e.g. /auth; Secret Config.Secret.
	URL, BasePath string
	Secret        []string
	Theme         pages.Theme
	// VerifyRequestPage is Pages.VerifyRequest, "" for the built-in page.
	VerifyRequestPage string
	// Limits is Config.Limits (never nil); SharedLimits reports whether
	// it keeps its counts outside this process.
	Limits       limit.Backend
	SharedLimits bool
	// Limiter returns l when it is set, and otherwise the limit called
	// name that Limits makes, with max attempts per key within window.
	Limiter func(l limit.Limiter, name string, max int, window time.Duration) limit.Limiter
	// ClientIP is Config.ClientIP, filled.
	ClientIP func(r *http.Request) string
	// Getenv reads the environment (Config.Getenv, os.Getenv by default).
	Getenv func(key string) string
	// AllowLink is the application's SignIn callback asked before an
	// e-mail link is sent (Auth.js: signIn with
	// email.verificationRequest); nil allows.
	AllowLink func(ctx context.Context, user profile.User, acct *account.Account, r *http.Request) (bool, error)
	Events    Events
}

// Events are the Handler's events a flow tells; nil fields are skipped.
type Events struct {
	CreateUser     func(ctx context.Context, user profile.User)
	LinkAccount    func(ctx context.Context, user profile.User, acct account.Account)
	PasswordReset  func(ctx context.Context, user profile.User)
	PasswordChange func(ctx context.Context, user profile.User)
	RevokeSessions func(ctx context.Context, user profile.User, n int)
	// Organization, Admin and APIKey are the features' events
	// (FeatureEnv).
	Organization func(ctx context.Context, c orgcore.Change)
	Admin        func(ctx context.Context, e admincore.Event)
	APIKey       func(ctx context.Context, e keycore.Event)
}

// Flow is one configured provider's sign-in. The Handler's routes check
// what every kind needs (origin, rate limit, CSRF token) and hand over.
type Flow interface {
	// Info returns the provider's id, name and type.
	Info() providers.Base
	// SignIn answers POST {base}/signin/{id} once the origin, the rate
	// limit and the CSRF token have been checked.
	SignIn(w http.ResponseWriter, r *http.Request, form url.Values)
	// Callback answers {base}/callback/{id} once the rate limit, and the
	// origin of a POST unless CrossSiteCallback, have been checked.
	Callback(w http.ResponseWriter, r *http.Request)
	// CrossSiteCallback reports whether the provider itself posts the
	// callback from its own site (OAuth's response_mode=form_post).
	CrossSiteCallback() bool
	// AddTo puts the provider on the built-in sign-in page.
	AddTo(page *pages.SignIn, p providers.AppProvider, b *site.Base)
	// Form renders the signIn template helper's form, with the options
	// the template gave (label, class, callbackUrl) in o.
	Form(path string, o pages.HelperForm) template.HTML
}

// Way is a flow that gives users a way to sign in besides their linked
// accounts (passkeys, a password, e-mail links): unlinking an account
// must leave one way.
type Way = selfservice.Counter

// Router is a flow with routes of its own, {base}/{id}/{action}.
type Router interface {
	// Actions returns the actions; all but verify answer a POST too.
	Actions() []string
	// Route answers {base}/{id}/{action}.
	Route(w http.ResponseWriter, r *http.Request)
}

// BaseRouter is a flow with routes of its own directly under {base}:
// the e-mail flows' verify-request page, the passkey flows' options and
// script. A route two flows both list is served once (the first's), and
// a site without such a flow neither serves nor links them.
type BaseRouter interface {
	BaseRoutes() []Route
}

// WebAuthn is a passkey flow.
type WebAuthn interface {
	// Options answers GET {base}/webauthn-options/{id}.
	Options(w http.ResponseWriter, r *http.Request)
	// SignUp reports whether people who are not signed in may create a
	// user with an unverified e-mail address (passkey.WebAuthnConfig.SignUp).
	SignUp() bool
}

// CheckSignUp refuses, as a *autherr.ConfigError, passkey sign-up
// (WebAuthn.SignUp: unverified addresses) beside a provider that signs
// an address's owner in to the user that has the address: an e-mail
// provider, or a provider linksByAddress reports (an OAuth provider with
// AllowDangerousEmailAccountLinking). A stranger could sign up with a
// victim's address first and keep access to the victim's account
// (pre-account hijacking).
func CheckSignUp(flows []Flow, linksByAddress func(Flow) bool) error {
	for _, f := range flows {
		if p, ok := f.(WebAuthn); !ok || !p.SignUp() {
			continue
		}
		id := f.Info().ID
		for _, o := range flows {
			if linksByAddress(o) {
				return &autherr.ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and provider %q links by e-mail address (AllowDangerousEmailAccountLinking): a stranger could sign up with a victim's address first and keep access to the victim's account", o.Info().ID)}
			}
			// An e-mail (magic link) provider signs its link's owner in to
			// the user with that address: the squatter's user, passkey
			// included.
			if o.Info().Type == providers.TypeEmail {
				return &autherr.ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and the e-mail provider %q signs in whoever owns an address to the user that has it: a stranger could sign up with a victim's address first and keep access to the victim's account", o.Info().ID)}
			}
		}
	}
	return nil
}
