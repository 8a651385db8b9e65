// Package selfservice is the signed-in user's own account routes under
// the base path: the linked accounts (GET accounts, POST
// accounts/unlink/{provider}), the sessions (GET sessions, POST
// sessions/revoke and sessions/revoke-others) and the two-factor
// settings (GET two-factor/setup, POST two-factor/{enroll,confirm,
// backup-codes,disable}). Each answers JSON, or the built-in page to a
// browser's navigation.
//
// The sign-in flows, the cookies and the session live in package
// gatehouse, which serves these routes through a Host. It builds them
// only when Config.SelfService or two-factor sign-in is on, and only the
// public package selfservice (the accounts and sessions routes) and
// internal/twofactorflow (the settings) reach their handlers: a program
// that turns neither on links none of this package's code. Every route here
// starts from the user the Host says is signed in, and every POST is
// checked by the Host (same origin, CSRF token) before it changes
// anything.
package selfservice

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Host is the handler, as these routes see it. Its methods take the
// request, from which it knows its base URL and cookies.
type Host interface {
	// CurrentUser returns the signed-in user's id, "" for none, and when
	// they signed in (zero when the session does not say); an error when
	// the store cannot be read.
	CurrentUser(ctx context.Context, r *http.Request) (string, time.Time, error)
	// SessionHash returns the stored hash of this browser's database
	// session token, "" for none.
	SessionHash(r *http.Request) string
	// SignOutHere clears this browser's session cookies.
	SignOutHere(w http.ResponseWriter, r *http.Request)
	// CSRFToken returns this browser's CSRF token for a form, setting
	// its cookie when there is none.
	CSRFToken(w http.ResponseWriter, r *http.Request) string
	// CheckPost checks a state-changing form POST (same origin, the CSRF
	// token) and returns the form.
	CheckPost(r *http.Request, step string) (url.Values, *autherr.Error)
	// Fail reports e to the browser (the error or sign-in page).
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	// Redirect answers with a redirect (303 to a POST), or {url} for a
	// client that asked with X-Auth-Return-Redirect.
	Redirect(w http.ResponseWriter, r *http.Request, target string)
	// Render writes a built-in page.
	Render(w http.ResponseWriter, r *http.Request, status int, page any)
	Text(r *http.Request, key string, args ...any) string
	// URL returns the absolute URL of the route parts under the base
	// path; Origin the site's origin.
	URL(r *http.Request, parts ...string) string
	Origin(r *http.Request) string
}

// Way is one kind of way in that is not a linked account, as the accounts
// page names it: "Password", "Email link", "Passkey"; Count of them (a
// user can have several passkeys).
type Way struct {
	Name  string
	Count int
}

// Counter is a provider that gives users a way to sign in besides their
// linked accounts (plugin.Way): unlinking an account must leave one way.
type Counter interface {
	// Way returns the way's name and how many of it userID has, 0 for
	// none. stored returns the stored user, read once for every provider.
	Way(ctx context.Context, userID string, stored func() (adapter.User, error)) (name string, n int, err error)
}

// countWays adds up ways.
func countWays(ways []Way) int {
	n := 0
	for _, w := range ways {
		n += w.Count
	}
	return n
}

// Provider is a configured provider, as the accounts page shows it.
type Provider struct {
	ID, Name string
	// OAuth marks an OAuth 2.0 or OpenID Connect provider: one that can
	// be linked from the accounts page. Style is its button's look.
	OAuth bool
	Style providers.Style
}

// Config is what the routes need besides the Host.
type Config struct {
	Adapter adapter.Adapter
	Linker  accountlink.Linker
	Logger  *slog.Logger
	Theme   pages.Theme
	// DatabaseSessions: the session strategy is the database's; sessions
	// can be listed (with an adapter.SessionLister) and ended one by one.
	DatabaseSessions bool
	// FreshAge is how recent the sign-in must be to turn two-factor
	// sign-in on or to unlink an account: a stolen session cookie alone
	// must not lock the user out.
	FreshAge time.Duration
	Events   Events
	// Providers lists the configured providers in order.
	Providers []Provider
	// Ways are the providers that give users ways to sign in that are
	// not linked accounts: passkeys, a password they can use, an e-mail
	// link to their proven address.
	Ways []Counter
	// NotFound answers a route that is not there: an unknown two-factor
	// action (Routes.TwoFactor). Nil: 404 with a JSON message.
	NotFound http.HandlerFunc
}

// Events are told what the routes did; nil fields are skipped.
type Events struct {
	Failure        func(ctx context.Context, e *autherr.Error)
	RevokeSessions func(ctx context.Context, user profile.User, n int)
	TwoFactor      func(ctx context.Context, user profile.User, c twofactorcore.Change)
}

// Routes serves the self-service routes.
type Routes struct {
	cfg  Config
	host Host
}

// New returns the routes of cfg, served through host.
func New(cfg Config, host Host) *Routes { return &Routes{cfg: cfg, host: host} }

// signedIn is the user a route acts for, and when they signed in.
type signedIn struct {
	id string
	at time.Time
}

// fresh reports whether u signed in within FreshAge: the changes a stolen
// session cookie must not make alone ask for it.
func (s *Routes) fresh(u signedIn) bool {
	return !u.at.IsZero() && time.Since(u.at) <= s.cfg.FreshAge
}

// staleJSON answers a change that needs a fresh sign-in.
func staleJSON(w http.ResponseWriter) {
	httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(autherr.SessionRequired), "code": "fresh_sign_in"})
}

// StaleMessage is the catalogue key (pages.Text) of what a page says
// when a change needs a fresh sign-in.
const StaleMessage = "selfservice.stale"

// owner returns the signed-in user, or answers for the route: 501
// without an adapter, 401 when nobody is signed in, 503 when the store is
// down.
func (s *Routes) owner(w http.ResponseWriter, r *http.Request) (signedIn, bool) {
	w.Header().Set("Cache-Control", "no-store")
	if s.cfg.Adapter == nil {
		httpx.WriteJSON(w, http.StatusNotImplemented, map[string]string{"error": string(autherr.Configuration), "code": "no_adapter"})
		return signedIn{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, at, err := s.host.CurrentUser(ctx, r)
	switch {
	case err != nil:
		s.cfg.Logger.Error("gatehouse: reading the session failed", "step", "accounts", "err", err)
		httpx.StoreUnavailable(w)
		return signedIn{}, false
	case id == "":
		httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(autherr.SessionRequired)})
		return signedIn{}, false
	}
	return signedIn{id, at}, true
}

// pageOwner is owner for a browser's page: nobody signed in is sent to
// sign in and back to back (a route under the base path); a store that
// is down gets the error page.
func (s *Routes) pageOwner(w http.ResponseWriter, r *http.Request, back ...string) (signedIn, bool) {
	if !httpx.AcceptsHTML(r) || s.cfg.Adapter == nil {
		return s.owner(w, r)
	}
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, at, err := s.host.CurrentUser(ctx, r)
	switch {
	case err != nil:
		s.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", back[0], err))
		return signedIn{}, false
	case id == "":
		s.host.Redirect(w, r, s.signInAgain(r, back...))
		return signedIn{}, false
	}
	return signedIn{id, at}, true
}

// signInAgain is the sign-in page, coming back to the route back.
func (s *Routes) signInAgain(r *http.Request, back ...string) string {
	return s.host.URL(r, "signin") + "?callbackUrl=" + url.QueryEscape(s.host.URL(r, back...))
}

// post checks a state-changing POST of the JSON routes as Host.CheckPost
// does, answering 403 when it fails. It returns the form.
func (s *Routes) post(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	form, err := s.host.CheckPost(r, "accounts")
	if err != nil {
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(err.Type), "code": err.Code})
		return nil, false
	}
	return form, true
}

// user returns the stored user as a profile, for the events.
func (s *Routes) user(ctx context.Context, id string) (profile.User, bool) {
	u, err := s.cfg.Adapter.GetUser(ctx, id)
	return accountlink.ToProfile(u), err == nil
}

// formOK checks a form POST of one of the pages as Host.CheckPost does,
// and returns the form. A form from another site is answered as Host.Fail
// does (the sign-in page's banner); one whose CSRF token is missing or
// stale (the cookie was replaced since the page was loaded) gets the page
// again through again, with a fresh token.
func (s *Routes) formOK(w http.ResponseWriter, r *http.Request, back string, again func(signedIn)) (url.Values, bool) {
	form, e := s.host.CheckPost(r, back)
	switch {
	case e == nil:
		return form, true
	case e.Code != "csrf": // cross_site, among others
		s.host.Fail(w, r, e)
		return nil, false
	}
	s.cfg.Logger.Warn("gatehouse: "+string(e.Type), "code", e.Code, "step", e.Step, "err", e.Err)
	if ev := s.cfg.Events.Failure; ev != nil {
		ev(r.Context(), e)
	}
	if u, ok := s.pageOwner(w, r, back); ok {
		again(u)
	}
	return nil, false
}
