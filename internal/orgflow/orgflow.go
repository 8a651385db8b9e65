// Package orgflow is the organization routes under {base}/organizations
// (package organization holds the rules; these routes read the request,
// find the signed-in user, and answer JSON, or a built-in page to a
// browser: pages.go), the active organization of
// a session, and the permission check of Handler.Can and
// Handler.RequirePermission.
//
// Every route starts from the user the Host says is signed in; every POST
// is checked by the Host (same origin, CSRF token) before it changes
// anything; every organization route acts through organization.Service,
// whose Authorize is the one permission check.
package orgflow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/session"
)

// Host is the handler, as these routes see it.
type Host interface {
	// CurrentUser returns the signed-in user's id, "" for none, and when
	// they signed in; an error when the store cannot be read.
	CurrentUser(ctx context.Context, r *http.Request) (string, time.Time, error)
	// Viewer returns the id of the user the application sees ("" for
	// none): during an administrator's impersonation the impersonated
	// user's (impersonated true), else CurrentUser's; an error when the
	// store cannot be read.
	Viewer(ctx context.Context, r *http.Request) (id string, impersonated bool, err error)
	// SessionHash returns the stored hash of this browser's database
	// session token, "" for none.
	SessionHash(r *http.Request) string
	// CheckPost checks a state-changing POST (same origin, the CSRF
	// token) and returns the form.
	CheckPost(r *http.Request, step string) (url.Values, *autherr.Error)
	// URL returns the absolute URL of the route parts under the base path.
	URL(r *http.Request, parts ...string) string
	// PageHost renders the built-in pages (pages.go).
	PageHost
}

// Config is what the routes need besides the Host.
type Config struct {
	Service *organization.Service
	Users   adapter.Adapter
	Logger  *slog.Logger
	// Database: sessions are database sessions (the active organization
	// is kept in the Store); JWT sessions keep it in their token, read
	// and rewritten with Token and Rewrite.
	Database bool
	MaxAge   time.Duration
	Token    func(r *http.Request) (session.Token, bool)
	Rewrite  func(w http.ResponseWriter, r *http.Request, t session.Token) error
	// Recache records a database session's new active organization in
	// this browser's cookie cache copy, if any; nil for none.
	Recache func(w http.ResponseWriter, r *http.Request, orgID string)
	// FreshAge is how recent the sign-in must be to delete an
	// organization.
	FreshAge time.Duration
	// Send sends an invitation; nil: the link is answered to the inviter.
	// Setup takes it from organization.Config.SendInvitation.
	Send func(ctx context.Context, m organization.Message) error
	// HasURL: the handler's URL is configured (Config.URL), as sending
	// links needs.
	HasURL bool
	// Providers are the handler's: without SendInvitation, invitations go
	// through the SMTP server of an e-mail provider (mail.go), when one
	// has one and HasURL.
	Providers []providers.Provider
	// Limits makes the limits of invitations sent (and resent): 20 an
	// hour per inviter, 100 an hour per organization.
	Limits limit.Backend
	// perInviter and perOrganization are those limits (Setup).
	perInviter, perOrganization limit.Limiter
	// Changed is told of every change, nil for none.
	Changed func(ctx context.Context, c organization.Change)
	// Theme is the look of the built-in pages (pages.go).
	Theme pages.Theme
}

// Routes serves the organization routes.
type Routes struct {
	cfg  Config
	host Host
}

// Setup returns the routes of oc with the rest of cfg, served through
// host; nil when oc is nil (organizations are off). cfg.Users must be an
// organization.Store.
func Setup(oc *organization.Config, cfg Config, host Host) (*Routes, error) {
	if oc == nil {
		return nil, nil
	}
	AddMessages()
	store, ok := cfg.Users.(organization.Store)
	if !ok || !adapter.Supports[organization.Store](cfg.Users) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, errors.New("organizations need an Adapter that is an organization.Store (the built-in adapters are)")
	}
	if oc.SendInvitation != nil && !cfg.HasURL {
		return nil, errors.New("SendInvitation needs Config.URL (AUTH_URL): invitation links must not take their host from the request")
	}
	svc, err := organization.New(*oc, store)
	if err != nil {
		return nil, err
	}
	cfg.Service, cfg.Send = svc, oc.SendInvitation
	if cfg.Send == nil && cfg.HasURL {
		cfg.Send = mailer(cfg.Providers)
	}
	cfg.perInviter = cfg.Limits.Limiter("organization-invitations-per-user", 20, time.Hour)
	cfg.perOrganization = cfg.Limits.Limiter("organization-invitations-per-organization", 100, time.Hour)
	return &Routes{cfg: cfg, host: host}, nil
}

// signedIn is the user a route acts for.
type signedIn struct {
	id string
	at time.Time
}

// user returns the signed-in user, or answers 401 or 503.
func (o *Routes) user(w http.ResponseWriter, r *http.Request) (signedIn, bool) {
	id, at, err := o.current(w, r)
	switch {
	case err != nil:
		o.cfg.Logger.Error("gatehouse: reading the session failed", "step", "organizations", "err", err)
		unavailable(w)
		return signedIn{}, false
	case id == "":
		httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(autherr.SessionRequired)})
		return signedIn{}, false
	}
	return signedIn{id, at}, true
}

// viewer is user for the user the application sees (Host.Viewer), and
// reports whether that is an administrator's impersonation.
func (o *Routes) viewer(w http.ResponseWriter, r *http.Request) (signedIn, bool, bool) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, impersonated, err := o.host.Viewer(ctx, r)
	switch {
	case err != nil:
		o.cfg.Logger.Error("gatehouse: reading the session failed", "step", "organizations", "err", err)
		unavailable(w)
		return signedIn{}, false, false
	case id == "":
		httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": string(autherr.SessionRequired)})
		return signedIn{}, false, false
	}
	return signedIn{id: id}, impersonated, true
}

func unavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"error": string(autherr.AdapterError)})
}

// post checks a POST and returns its form and the signed-in user.
func (o *Routes) post(w http.ResponseWriter, r *http.Request) (url.Values, signedIn, bool) {
	form, e := o.host.CheckPost(r, "organizations")
	if e != nil {
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(e.Type), "code": e.Code})
		return nil, signedIn{}, false
	}
	u, ok := o.user(w, r)
	return form, u, ok
}

// answers returns the status and code of each error of the organization
// Service, in the order they are tested: a function, not a variable, so
// that the package has nothing to initialize in a program that imports
// it without turning organizations on.
func answers() []answer {
	return []answer{
		{organization.ErrNotFound, http.StatusNotFound, "not_found"},
		{organization.ErrForbidden, http.StatusForbidden, "forbidden"},
		{organization.ErrLastOwner, http.StatusConflict, "last_owner"},
		{organization.ErrRoleInUse, http.StatusConflict, "role_in_use"},
		{organization.ErrRoleChanged, http.StatusConflict, "role_changed"},
		{organization.ErrConflict, http.StatusConflict, "conflict"},
		{organization.ErrInvalid, http.StatusBadRequest, "invalid"},
		{organization.ErrLimit, http.StatusConflict, "limit"},
		{organization.ErrExpired, http.StatusGone, "expired"},
		{organization.ErrWrongRecipient, http.StatusForbidden, "wrong_recipient"},
	}
}

// answer is an error's status and code.
type answer struct {
	err    error
	status int
	code   string
}

// fail answers err, an error of the organization Service: the codes say
// what went wrong, never more than the user may know (a non-member is
// told "not_found" of an organization that exists).
func (o *Routes) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, code := http.StatusInternalServerError, ""
	for _, a := range answers() {
		if errors.Is(err, a.err) {
			status, code = a.status, a.code
			break
		}
	}
	if status == http.StatusInternalServerError {
		o.cfg.Logger.Error("gatehouse: an organization route failed", "path", r.URL.Path, "err", err)
		unavailable(w)
		return
	}
	body := map[string]string{"error": code}
	if status == http.StatusForbidden || status == http.StatusBadRequest || code == "limit" {
		body["reason"] = err.Error() // the missing statements, the field: nothing of another organization
	}
	httpx.WriteJSON(w, status, body)
}

// changed tells Config.Changed.
func (o *Routes) changed(ctx context.Context, c organization.Change) {
	if o.cfg.Changed != nil {
		o.cfg.Changed(ctx, c)
	}
}

// made reports whether a change succeeded: false when err is set, after
// answering it as fail does; true otherwise, after telling Config.Changed
// of c. The caller then answers.
func (o *Routes) made(w http.ResponseWriter, r *http.Request, err error, c organization.Change) bool {
	if err != nil {
		o.fail(w, r, err)
		return false
	}
	o.changed(r.Context(), c)
	return true
}

// ok answers 200 with v.
func ok(w http.ResponseWriter, v any) { httpx.WriteJSON(w, http.StatusOK, v) }

// read answers a GET route for the signed-in user: 200 with what get
// returns for them, or its error.
func (o *Routes) read(w http.ResponseWriter, r *http.Request, get func(ctx context.Context, userID string) (any, error)) {
	u, good := o.user(w, r)
	if !good {
		return
	}
	v, err := get(r.Context(), u.id)
	o.reply(w, r, v, err)
}

// reply answers 200 with v, or err.
func (o *Routes) reply(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		o.fail(w, r, err)
		return
	}
	ok(w, v)
}

// List answers GET {base}/organizations: the signed-in user's
// organizations; a browser gets the switcher page (pages.go).
func (o *Routes) List(w http.ResponseWriter, r *http.Request) {
	if httpx.AcceptsHTML(r) {
		o.listPage(w, r)
		return
	}
	o.read(w, r, func(ctx context.Context, userID string) (any, error) { return o.cfg.Service.Organizations(ctx, userID) })
}

// Create answers POST {base}/organizations {name, slug}: the user becomes
// its owner.
func (o *Routes) Create(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	if o.cfg.Service.Config().DisableCreate {
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "reason": "organizations are created by the application"})
		return
	}
	org, err := o.cfg.Service.Create(r.Context(), u.id, form.Get("name"), form.Get("slug"))
	if o.made(w, r, err, organization.Change{Kind: organization.Created, OrganizationID: org.ID, ActorID: u.id}) {
		httpx.WriteJSON(w, http.StatusCreated, org)
	}
}

// Get answers GET {base}/organizations/{org}: the organization as the
// user sees it; a browser gets the settings page (pages.go).
func (o *Routes) Get(w http.ResponseWriter, r *http.Request) {
	if httpx.AcceptsHTML(r) {
		o.orgPage(w, r)
		return
	}
	o.read(w, r, func(ctx context.Context, userID string) (any, error) {
		return o.cfg.Service.Get(ctx, userID, chi.URLParam(r, "org"))
	})
}

// Update answers POST {base}/organizations/{org}/update {name, slug}.
func (o *Routes) Update(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	org, err := o.cfg.Service.Update(r.Context(), u.id, chi.URLParam(r, "org"), form.Get("name"), form.Get("slug"))
	if o.made(w, r, err, organization.Change{Kind: organization.Updated, OrganizationID: org.ID, ActorID: u.id}) {
		ok(w, org)
	}
}

// Delete answers POST {base}/organizations/{org}/delete: the owner, with a
// fresh sign-in (a stolen session cookie alone must not delete it).
func (o *Routes) Delete(w http.ResponseWriter, r *http.Request) {
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id := chi.URLParam(r, "org")
	if _, _, err := o.cfg.Service.Authorize(r.Context(), id, u.id, organization.DeleteOrganization); err != nil {
		o.fail(w, r, err)
		return
	}
	if u.at.IsZero() || time.Since(u.at) > o.cfg.FreshAge {
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(autherr.SessionRequired), "code": "fresh_sign_in"})
		return
	}
	err := o.cfg.Service.Delete(r.Context(), u.id, id)
	if o.made(w, r, err, organization.Change{Kind: organization.Deleted, OrganizationID: id, ActorID: u.id}) {
		ok(w, map[string]bool{"deleted": true})
	}
}

// Leave answers POST {base}/organizations/{org}/leave.
func (o *Routes) Leave(w http.ResponseWriter, r *http.Request) {
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id := chi.URLParam(r, "org")
	err := o.cfg.Service.Leave(r.Context(), u.id, id)
	if o.made(w, r, err, organization.Change{Kind: organization.MemberRemoved, OrganizationID: id, ActorID: u.id, UserID: u.id}) {
		ok(w, map[string]bool{"left": true})
	}
}

// RemoveMember answers POST {base}/organizations/{org}/members/{user}/remove.
func (o *Routes) RemoveMember(w http.ResponseWriter, r *http.Request) {
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id, member := chi.URLParam(r, "org"), chi.URLParam(r, "user")
	err := o.cfg.Service.Remove(r.Context(), u.id, id, member)
	if o.made(w, r, err, organization.Change{Kind: organization.MemberRemoved, OrganizationID: id, ActorID: u.id, UserID: member}) {
		ok(w, map[string]bool{"removed": true})
	}
}

// SetRole answers POST {base}/organizations/{org}/members/{user}/role {role}.
func (o *Routes) SetRole(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	id, member, role := chi.URLParam(r, "org"), chi.URLParam(r, "user"), form.Get("role")
	err := o.cfg.Service.SetRole(r.Context(), u.id, id, member, role)
	if o.made(w, r, err, organization.Change{Kind: organization.RoleChanged, OrganizationID: id, ActorID: u.id, UserID: member, Role: role}) {
		ok(w, map[string]string{"role": role})
	}
}

// statements reads a role's statements from a form: repeated
// "permission" fields, or "permissions" separated by spaces or commas.
func statements(form url.Values) []string {
	list := append([]string{}, form["permission"]...)
	return append(list, strings.FieldsFunc(form.Get("permissions"), func(c rune) bool { return c == ' ' || c == ',' })...)
}

// Roles answers POST {base}/organizations/{org}/roles {name, permissions}
// (create), POST .../roles/{role}/update {permissions} and POST
// .../roles/{role}/delete.
func (o *Routes) Roles(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	id, name, action := chi.URLParam(r, "org"), chi.URLParam(r, "role"), chi.URLParam(r, "action")
	svc, ctx := o.cfg.Service, r.Context()
	var (
		role organization.Role
		err  error
		kind organization.ChangeKind
	)
	switch action {
	case "":
		name, kind = form.Get("name"), organization.RoleCreated
		role, err = svc.CreateRole(ctx, u.id, id, name, statements(form))
	case "update":
		kind = organization.RoleUpdated
		role, err = svc.UpdateRole(ctx, u.id, id, name, statements(form))
	case "delete":
		kind = organization.RoleDeleted
		role.Name, err = name, svc.DeleteRole(ctx, u.id, id, name)
	default:
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	if o.made(w, r, err, organization.Change{Kind: kind, OrganizationID: id, ActorID: u.id, Role: name}) {
		ok(w, role)
	}
}

// SetActive answers POST {base}/organizations/active {organizationId}:
// the organization the session works in ("" for none). Only a member may
// make an organization active.
func (o *Routes) SetActive(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	id := form.Get("organizationId")
	if id != "" {
		if _, _, err := o.cfg.Service.Authorize(r.Context(), id, u.id); err != nil {
			o.fail(w, r, err)
			return
		}
	}
	if err := o.setActive(w, r, u.id, id); err != nil {
		o.fail(w, r, err)
		return
	}
	ok(w, map[string]string{"activeOrganizationId": id})
}

// Active returns the active organization of r's session, "" for none.
func (o *Routes) Active(ctx context.Context, r *http.Request) (string, error) {
	if o.cfg.Database {
		hash := o.host.SessionHash(r)
		if hash == "" {
			return "", nil
		}
		return o.cfg.Service.Store().ActiveOrganization(ctx, hash)
	}
	t, ok := o.cfg.Token(r)
	if !ok {
		return "", nil
	}
	return t.Organization, nil
}

// ActiveFor is Active for the session whose token hash is tokenHash
// (database sessions), for a session read from the database (GET
// {base}/session, the Middleware); a failure is logged.
func (o *Routes) ActiveFor(ctx context.Context, tokenHash string) (string, error) {
	id, err := o.cfg.Service.Store().ActiveOrganization(ctx, tokenHash)
	if err != nil {
		o.cfg.Logger.Error("gatehouse: reading the active organization failed", "step", "session", "err", err)
	}
	return id, err
}

// setActive records orgID as the active organization of r's session.
func (o *Routes) setActive(w http.ResponseWriter, r *http.Request, userID, orgID string) error {
	if o.cfg.Database {
		hash := o.host.SessionHash(r)
		if hash == "" {
			return organization.ErrNotFound
		}
		err := o.cfg.Service.Store().SetActiveOrganization(r.Context(), hash, userID, orgID, time.Now().Add(o.cfg.MaxAge))
		if err == nil && o.cfg.Recache != nil {
			o.cfg.Recache(w, r, orgID)
		}
		return err
	}
	t, ok := o.cfg.Token(r)
	if !ok {
		return organization.ErrNotFound
	}
	t.Organization = orgID
	return o.cfg.Rewrite(w, r, t)
}

// Can reports whether the role of the user the application sees in the
// active organization holds st. No session, no active organization, or a
// membership that ended, is false; so is an administrator's
// impersonation, which works in no organization (the active one is the
// administrator's, whose permissions are not lent to the user shown).
func (o *Routes) Can(r *http.Request, st string) (bool, error) {
	if o == nil {
		return false, plugin.ErrOrganizationsOff
	}
	want, err := permission.Parse(st)
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	userID, impersonated, err := o.host.Viewer(ctx, r)
	if err != nil || userID == "" || impersonated {
		return false, err
	}
	org, err := o.Active(ctx, r)
	if err != nil || org == "" {
		return false, err
	}
	return o.cfg.Service.Can(ctx, org, userID, want)
}

// CanJSON answers GET {base}/organizations/can?permission=: whether
// the signed-in user's role in the active organization holds the
// statement, {"allowed": bool}.
func (o *Routes) CanJSON(w http.ResponseWriter, r *http.Request) {
	if _, good := o.user(w, r); !good {
		return
	}
	allowed, err := o.Can(r, r.URL.Query().Get("permission"))
	switch {
	case errors.Is(err, permission.ErrInvalid):
		o.fail(w, r, fmt.Errorf("%w: %w", organization.ErrInvalid, err))
	case err != nil:
		o.fail(w, r, err)
	default:
		ok(w, map[string]bool{"allowed": allowed})
	}
}

// Require returns middleware that lets a request through only when Can
// says yes; otherwise it answers 401 (nobody signed in), 403 JSON saying
// which statement is missing, and 503 when the store is down. It panics
// when st is not a valid statement (a programming error, found at
// start). A JWT
// session whose active organization the user no longer belongs to has
// it cleared. An administrator's impersonation works in no organization:
// 403 no_active_organization.
func (o *Routes) Require(st string) func(http.Handler) http.Handler {
	want := permission.MustSet(st)[0]
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if o == nil {
				httpx.WriteJSON(w, http.StatusNotImplemented, map[string]string{"error": string(autherr.Configuration), "reason": plugin.ErrOrganizationsOff.Error()})
				return
			}
			u, impersonated, good := o.viewer(w, r)
			if !good {
				return
			}
			if impersonated {
				httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "code": "no_active_organization",
					"reason": "an impersonation works in no organization"})
				return
			}
			org, err := o.Active(r.Context(), r)
			if err != nil {
				unavailable(w)
				return
			}
			if org == "" {
				httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "code": "no_active_organization",
					"reason": "choose an organization first (POST " + o.host.URL(r, "organizations", "active") + ")"})
				return
			}
			_, _, err = o.cfg.Service.Authorize(r.Context(), org, u.id, want)
			switch {
			case errors.Is(err, organization.ErrNotFound):
				if !o.cfg.Database {
					_ = o.setActive(w, r, u.id, "") // removed from it since: the token forgets it
				}
				httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "code": "not_a_member",
					"reason": "you are no longer a member of the active organization"})
			case errors.Is(err, organization.ErrForbidden):
				httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "forbidden", "code": "missing_permission",
					"reason": "your role lacks " + string(want)})
			case err != nil:
				unavailable(w)
			default:
				next.ServeHTTP(w, r)
			}
		})
	}
}

// reserve takes one invitation from each limit, or answers 429.
func (o *Routes) reserve(w http.ResponseWriter, r *http.Request, userID, orgID string) bool {
	wait, err := limit.ReserveAll(r.Context(),
		limit.Attempt{Limiter: o.cfg.perInviter, Key: "user:" + userID},
		limit.Attempt{Limiter: o.cfg.perOrganization, Key: "org:" + orgID})
	if err != nil {
		wait = time.Minute // a limiter that fails refuses
	}
	if wait <= 0 {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	httpx.WriteJSON(w, http.StatusTooManyRequests, map[string]string{"error": string(autherr.TooManyRequests)})
	return false
}

// FromEnv returns the routes of oc for the Handler e describes
// (organization.Enable).
func FromEnv(oc organization.Config, e *plugin.FeatureEnv) (*Routes, error) {
	fs := e.Finisher.Site
	return Setup(&oc, Config{Users: e.Adapter, Logger: e.Logger, HasURL: e.URL != "",
		Database: e.DatabaseSessions, MaxAge: e.MaxAge, FreshAge: e.FreshAge,
		Token: func(r *http.Request) (session.Token, bool) { return fs.Sessions.Token(r, fs.For(r)) },
		Rewrite: func(w http.ResponseWriter, r *http.Request, t session.Token) error {
			return fs.Sessions.Rewrite(w, r, fs.For(r), t)
		},
		Recache: func(w http.ResponseWriter, r *http.Request, org string) { fs.Sessions.Recache(w, r, fs.For(r), org) },
		Limits:  e.Limits, Providers: e.Providers, Changed: e.Events.Organization, Theme: e.Theme}, fs)
}

// Routes returns the routes under the base path; a POST a page's form
// made gets 303 back to the page (Form).
func (o *Routes) Routes() []plugin.Route {
	get := func(p string, f http.HandlerFunc) plugin.Route {
		return plugin.Route{Method: http.MethodGet, Pattern: p, Handler: f}
	}
	post := func(p string, f http.HandlerFunc) plugin.Route {
		return plugin.Route{Method: http.MethodPost, Pattern: p, Handler: o.Form(f)}
	}
	return []plugin.Route{get("/organizations", o.List), post("/organizations", o.Create),
		post("/organizations/active", o.SetActive), get("/organizations/can", o.CanJSON),
		get("/organizations/invitation", o.Show), post("/organizations/invitation/{action}", o.Answer),
		get("/organizations/{org}", o.Get), post("/organizations/{org}/update", o.Update),
		post("/organizations/{org}/delete", o.Delete), post("/organizations/{org}/leave", o.Leave),
		post("/organizations/{org}/members/{user}/remove", o.RemoveMember), post("/organizations/{org}/members/{user}/role", o.SetRole),
		post("/organizations/{org}/roles", o.Roles), post("/organizations/{org}/roles/{role}/{action}", o.Roles),
		get("/organizations/{org}/invitations", o.Invitations), post("/organizations/{org}/invitations", o.Invitations),
		post("/organizations/{org}/invitations/{invitation}/{action}", o.Invitation),
		// Teams (teams.go): 404 when Config.Teams is off.
		get("/organizations/{org}/teams", o.Teams), post("/organizations/{org}/teams", o.Teams),
		post("/organizations/{org}/teams/{team}/update", o.UpdateTeam), post("/organizations/{org}/teams/{team}/delete", o.DeleteTeam),
		get("/organizations/{org}/teams/{team}/members", o.TeamMembers), post("/organizations/{org}/teams/{team}/members", o.TeamMembers),
		post("/organizations/{org}/teams/{team}/members/{user}/remove", o.RemoveTeamMember)}
}
