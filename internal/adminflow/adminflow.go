// Package adminflow is the administrators' routes under {base}/admin
// (package admin has the vocabulary and the storage contract):
//
//	GET  admin/users                      list and search users
//	POST admin/users                      create a user            (fresh sign-in)
//	GET  admin/users/{id}                 one user: accounts, sessions, ban
//	POST admin/users/{id}/role            set the global role      (fresh sign-in)
//	POST admin/users/{id}/ban             ban                      (fresh sign-in)
//	POST admin/users/{id}/unban           lift the ban
//	POST admin/users/{id}/revoke-sessions end every session
//	POST admin/users/{id}/delete          delete with everything   (fresh sign-in)
//	POST admin/users/{id}/impersonate     see the site as the user (fresh sign-in)
//	POST admin/users/{id}/set-password    set the password         (fresh sign-in)
//	POST admin/users/{id}/revoke-session  end one database session
//	POST admin/stop-impersonating         back to one's own session
//
// and the signed-in user's own (self.go, email.go):
//
//	POST account/delete                   delete one's account     (fresh sign-in)
//	POST account/email                    ask to change one's address (fresh sign-in)
//	GET  account/email/confirm            the link that changes it
//
// Every route answers JSON, and the two GET routes a browser's page
// (pages.go). Only administrators get past the door: a
// stored role of admin.RoleAdmin, or a user admin.Config names; anyone
// else gets 403, nobody signed in 401. Every POST is checked by the Host
// (same origin, CSRF token) before anything else, and the changes a
// stolen session cookie must not make alone need a sign-in within
// FreshAge, as the self-service routes do.
package adminflow

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// Host is the handler, as these routes see it.
type Host interface {
	// CurrentUser returns the signed-in user's id, "" for none, and when
	// they signed in (zero when the session does not say); an error when
	// the store cannot be read.
	CurrentUser(ctx context.Context, r *http.Request) (string, time.Time, error)
	// CheckPost checks a state-changing POST (same origin, the CSRF
	// token) and returns the form.
	CheckPost(r *http.Request, step string) (url.Values, *autherr.Error)
	// SignOutHere clears this browser's session cookies.
	SignOutHere(w http.ResponseWriter, r *http.Request)
	// URL returns the absolute URL of the route parts under the base path.
	URL(r *http.Request, parts ...string) string
	// Impersonate makes this browser, the administrator adminID's, see
	// the application as the user userID until expires.
	Impersonate(w http.ResponseWriter, r *http.Request, adminID, userID string, expires time.Time) error
	// StopImpersonating ends this browser's impersonation and says whose
	// it was; ok is false when there was none.
	StopImpersonating(w http.ResponseWriter, r *http.Request) (adminID, userID string, ok bool)
	// PageHost renders the built-in pages (pages.go).
	PageHost
}

// Config is what the routes need besides the Host.
type Config struct {
	// Admin is the feature's configuration (never nil here).
	Admin *admin.Config
	// Adapter holds the users; Store is the same adapter as an
	// admin.Store.
	Adapter adapter.Adapter
	Store   admin.Store
	// DatabaseSessions: the sessions are rows, which a ban or revocation
	// deletes and the user's page lists.
	DatabaseSessions bool
	// Organizations: organizations are on. A user is then deleted
	// through Owners, never the only owner of an organization.
	Organizations bool
	Owners        admin.OwnerKeeper
	// FreshAge is how recent the administrator's sign-in must be to
	// ban, delete, or change a role.
	FreshAge time.Duration
	Logger   *slog.Logger
	// ClientIP is the handler's (through the trusted proxies), for the
	// events.
	ClientIP func(r *http.Request) string
	// Event is told of every action done; nil for none.
	Event func(ctx context.Context, e admin.Event)
	// NotFound answers every route when Admin is nil (the feature is
	// off).
	NotFound http.HandlerFunc
	// Passwords, when set, is the password-accounts provider's hashing:
	// the routes may then set a user's password.
	Passwords *Passwords
	// Theme is the look of the built-in pages (pages.go).
	Theme pages.Theme
}

// Routes serves the admin routes.
type Routes struct {
	cfg  Config
	host Host
}

// off answers for a route of a feature switched off.
func (s *Routes) off(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Admin != nil {
		return false
	}
	s.cfg.NotFound(w, r)
	return true
}

// New returns the routes of cfg, served through host.
func New(cfg Config, host Host) *Routes {
	AddMessages()
	return &Routes{cfg: cfg, host: host}
}

// Setup is New with cfg.Store (and, with organizations on, cfg.Owners)
// taken from cfg.Adapter: an error when cfg.Admin is set and the adapter
// is not an admin.Store, or with organizations on not an
// admin.OwnerKeeper.
func Setup(cfg Config, host Host) (*Routes, error) {
	store, ok := cfg.Adapter.(admin.Store)
	if cfg.Admin != nil && (!ok || !adapter.Supports[admin.Store](cfg.Adapter)) {
		return nil, &autherr.ConfigError{Field: "Admin", Err: errors.New("needs an Adapter that is an admin.Store (the built-in adapters are)")}
	}
	cfg.Store = store
	if cfg.Organizations {
		owners, ok := cfg.Adapter.(admin.OwnerKeeper)
		if cfg.Admin != nil && (!ok || !adapter.Supports[admin.OwnerKeeper](cfg.Adapter)) {
			return nil, &autherr.ConfigError{Field: "Admin", Err: errors.New("with Organizations, needs an Adapter that is an admin.OwnerKeeper, which deletes no organization's last owner (the built-in adapters are)")}
		}
		cfg.Owners = owners
	}
	return New(cfg, host), nil
}

// fail answers a JSON error.
func fail(w http.ResponseWriter, status int, t autherr.Type, code string) {
	httpx.WriteJSON(w, status, map[string]string{"error": string(t), "code": code})
}

// unavailable answers 503: the store could not be read or written.
func (s *Routes) unavailable(w http.ResponseWriter, step string, err error) {
	s.cfg.Logger.Error("gatehouse: an admin route's store call failed", "step", step, "err", err)
	w.Header().Set("Retry-After", "5")
	fail(w, http.StatusServiceUnavailable, autherr.AdapterError, "store")
}

// purge deletes the user with everything stored of them: with
// organizations on, never the only owner of one (an error wrapping
// organization.ErrLastOwner), checked in the store's deletion itself so
// that a concurrent change to the organization's other owners cannot
// slip in between.
func (s *Routes) purge(ctx context.Context, userID string) error {
	if s.cfg.Owners != nil {
		return s.cfg.Owners.PurgeUnlessLastOwner(ctx, userID)
	}
	return s.cfg.Store.PurgeUser(ctx, userID)
}

// actor is the administrator a request acts for.
type actor struct {
	id    string
	fresh bool
}

// admitted returns the signed-in administrator, or why not: refusal is
// "no_session" for nobody signed in, "not_admin" for a user who is not an
// administrator; err when the store cannot be read.
func (s *Routes) admitted(ctx context.Context, r *http.Request) (who actor, refusal string, err error) {
	id, at, err := s.host.CurrentUser(ctx, r)
	if err != nil || id == "" {
		return actor{}, "no_session", err
	}
	isAdmin, err := s.isAdmin(ctx, id)
	if err != nil || !isAdmin {
		return actor{}, "not_admin", err
	}
	return actor{id: id, fresh: !at.IsZero() && time.Since(at) <= s.cfg.FreshAge}, "", nil
}

// door returns the signed-in administrator, or answers: 401 nobody
// signed in, 403 not an administrator, 503 store down.
func (s *Routes) door(ctx context.Context, w http.ResponseWriter, r *http.Request) (actor, bool) {
	w.Header().Set("Cache-Control", "no-store")
	who, refusal, err := s.admitted(ctx, r)
	switch {
	case err != nil:
		s.unavailable(w, "admin", err)
	case refusal == "no_session":
		fail(w, http.StatusUnauthorized, autherr.SessionRequired, refusal)
	case refusal != "":
		fail(w, http.StatusForbidden, autherr.AccessDenied, refusal)
	default:
		return who, true
	}
	return actor{}, false
}

// isAdmin reports whether the user is an administrator: named by Config
// or with the stored role.
func (s *Routes) isAdmin(ctx context.Context, userID string) (bool, error) {
	return admin.ReadIsAdmin(ctx, s.cfg.Admin, s.cfg.Adapter, s.cfg.Store, userID)
}

// user is a user as the routes show one.
type user struct {
	ID            string     `json:"id"`
	Name          string     `json:"name,omitempty"`
	Email         string     `json:"email,omitempty"`
	EmailVerified *time.Time `json:"emailVerified,omitempty"`
	Image         string     `json:"image,omitempty"`
	Role          admin.Role `json:"role"`
	// Named marks an administrator by configuration, whose role the
	// routes cannot change.
	Named  bool `json:"named,omitempty"`
	Banned bool `json:"banned"`
	Ban    *ban `json:"ban,omitempty"`
}

// ban is a ban as the routes show it.
type ban struct {
	Reason     string    `json:"reason,omitempty"`
	ShowReason bool      `json:"showReason,omitempty"`
	Expires    time.Time `json:"expires,omitzero"`
	By         string    `json:"by,omitempty"`
	At         time.Time `json:"at"`
}

// shown returns u and its status as the routes show them.
func (s *Routes) shown(u adapter.User, st admin.Status, now time.Time) user {
	out := user{ID: u.ID, Name: u.Name, Email: u.Email, EmailVerified: u.EmailVerified, Image: u.Image,
		Role: st.Role, Named: s.cfg.Admin.Named(u), Banned: st.Ban.Active(now)}
	if out.Named {
		out.Role = admin.RoleAdmin
	}
	if b := st.Ban; b != nil {
		out.Ban = &ban{Reason: b.Reason, ShowReason: b.ShowReason, Expires: b.Expires, By: b.By, At: b.At}
	}
	return out
}

// List answers GET {base}/admin/users?search=&role=&banned=1&after=&limit=:
// {users, next}; next is the cursor of the following page ("" at the
// end), given back as after. A browser gets the page (pages.go).
func (s *Routes) List(w http.ResponseWriter, r *http.Request) {
	s.read(w, r, s.listPage, func(ctx context.Context) {
		q, ok := s.query(r)
		if !ok {
			fail(w, http.StatusBadRequest, autherr.Configuration, "invalid_role")
			return
		}
		page, err := s.cfg.Store.ListUsers(ctx, q)
		if err != nil {
			s.unavailable(w, "admin_list", err)
			return
		}
		out := struct {
			Users []user `json:"users"`
			Next  string `json:"next"`
		}{Users: make([]user, 0, len(page.Users)), Next: page.Next}
		for _, l := range page.Users {
			out.Users = append(out.Users, s.shown(l.User, l.Status, q.Now))
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	})
}

// read serves a GET route: 404 with the feature off, the page to a
// browser, and to a program, once the door has let an administrator
// in, what serve answers within the store's deadline (ctx).
func (s *Routes) read(w http.ResponseWriter, r *http.Request, page http.HandlerFunc, serve func(ctx context.Context)) {
	if s.off(w, r) {
		return
	}
	if httpx.AcceptsHTML(r) {
		page(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	if _, ok := s.door(ctx, w, r); ok {
		serve(ctx)
	}
}

// query returns the list query of r's URL; false for an invalid role.
func (s *Routes) query(r *http.Request) (admin.Query, bool) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	role := admin.Role(q.Get("role"))
	return admin.Query{Search: q.Get("search"), Role: role,
		BannedOnly: q.Get("banned") == "1" || q.Get("banned") == "true", After: q.Get("after"),
		Limit: s.cfg.Admin.Limit(limit), Now: time.Now()}, role == "" || role.Valid()
}

// FromEnv returns the routes of c for the Handler e describes
// (admin.Enable).
func FromEnv(c admin.Config, e *plugin.FeatureEnv) (*Routes, error) {
	pw, err := passwordsOf(e.Providers, e.Adapter)
	if err != nil {
		return nil, err
	}
	return Setup(Config{Admin: &c, Adapter: e.Adapter, DatabaseSessions: e.DatabaseSessions, Organizations: e.Organizations, FreshAge: e.FreshAge,
		Logger: e.Logger, ClientIP: e.ClientIP, Event: e.Events.Admin, NotFound: e.NotFound, Passwords: pw, Theme: e.Theme}, e.Finisher.Site)
}

// Routes returns the routes under the base path; a POST a page's form
// made gets 303 back to the page (Form).
func (s *Routes) Routes() []plugin.Route {
	get, post := http.MethodGet, http.MethodPost
	return []plugin.Route{{Method: get, Pattern: "/admin/users", Handler: s.List},
		{Method: post, Pattern: "/admin/users", Handler: s.Form(s.CreateUser)},
		{Method: get, Pattern: "/admin/users/{id}", Handler: s.User},
		{Method: post, Pattern: "/admin/users/{id}/{action}", Handler: s.Form(s.Act)},
		{Method: post, Pattern: "/admin/stop-impersonating", Handler: s.StopImpersonating},
		{Method: post, Pattern: "/account/delete", Handler: s.DeleteSelf},
		{Method: post, Pattern: "/account/email", Handler: s.ChangeEmail},
		{Method: get, Pattern: "/account/email/confirm", Handler: s.ConfirmEmail}}
}
