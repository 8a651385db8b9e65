package adminflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// The built-in pages of the admin routes. A browser's navigation (Accept:
// text/html) to GET {base}/admin/users or GET {base}/admin/users/{id}
// gets a page; a program gets the JSON on the same URL. The pages' forms
// POST to the JSON routes, which Form wraps: the route runs as it is, and
// its answer becomes a redirect (303) back to the page, which says what
// happened. Someone signed in who is not an administrator gets 404 from
// the pages and their forms, as though there were none; nobody signed in
// is sent to sign in.

// PageHost is what the pages need of the handler.
type PageHost = plugin.PageHost

// done are the notices of the pages, by the ?done= value a form's
// redirect adds (the route's action). Only these are shown: the query is
// the browser's.
var done = map[string]string{
	"create": "admin.doneCreated", "role": "admin.doneRole", "ban": "admin.doneBan", "unban": "admin.doneUnban",
	"revoke-sessions": "admin.doneRevokeSessions", "revoke-session": "admin.doneRevokeSession",
	"set-password": "admin.donePassword", "delete": "admin.doneDeleted",
}

// failed are the alerts of the pages, by the ?failed= value: the code of
// the route's refusal. Another code is shown as admin.errOther.
var failed = map[string]string{
	"self": "admin.errSelf", "protected": "admin.errProtected", "fresh_sign_in": "admin.errFresh",
	"email_taken": "admin.errTaken", "invalid_role": "admin.errInvalid", "invalid_email": "admin.errInvalid",
	"name_too_long": "admin.errInvalid", "reason_too_long": "admin.errInvalid", "invalid_expiry": "admin.errInvalid",
	"password_too_short": "admin.errPassword", "password_too_long": "admin.errPassword", "password_breached": "admin.errPassword",
	"no_such_user": "admin.errNotFound", "no_such_session": "admin.errNotFound", "refused": "admin.errRefused",
	"csrf": "admin.errForm", "cross_site": "admin.errForm", "banned": "admin.errBanned", "confirm": "admin.errConfirm",
	"last_owner": "admin.errLastOwner",
}

// status returns the notice and the alert that r's query asks for.
func (s *Routes) status(r *http.Request) (notice, alert string) {
	return plugin.PageStatus(s.host, r, done, failed, "admin.errOther")
}

// storeDown shows the error page for a store that cannot be read.
func (s *Routes) storeDown(w http.ResponseWriter, r *http.Request, err error) {
	s.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "admin", err))
}

// pageDoor returns the signed-in administrator for a page, or answers:
// nobody signed in is sent to sign in and back, anyone else who is not
// an administrator gets 404, a store that is down the error page.
func (s *Routes) pageDoor(ctx context.Context, w http.ResponseWriter, r *http.Request) (actor, bool) {
	w.Header().Set("Cache-Control", "no-store")
	who, refusal, err := s.admitted(ctx, r)
	switch {
	case err != nil:
		s.storeDown(w, r, err)
	case refusal == "no_session":
		s.host.Redirect(w, r, s.host.URL(r, "signin")+"?"+url.Values{"callbackUrl": {r.URL.RequestURI()}}.Encode())
	case refusal != "":
		s.cfg.NotFound(w, r)
	default:
		return who, true
	}
	return actor{}, false
}

// day is how the pages show a time.
const day = "2006-01-02 15:04 UTC"

// listPage renders GET {base}/admin/users for a browser.
func (s *Routes) listPage(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	if _, ok := s.pageDoor(ctx, w, r); !ok {
		return
	}
	list := s.host.URL(r, "admin", "users")
	q := r.URL.Query()
	p := pages.AdminUsers{Theme: s.cfg.Theme, CSRFToken: s.host.CSRFToken(w, r), ListURL: list, CreateURL: list,
		Password: s.cfg.Passwords != nil, Search: q.Get("search"), Role: q.Get("role"), Banned: q.Get("banned") == "1",
		HomeURL: s.host.Origin(r) + "/"}
	p.Notice, p.Error = s.status(r)
	query, ok := s.query(r)
	if !ok {
		p.Role, p.Error = "", s.host.Text(r, "admin.errInvalid")
		query.Role = ""
	}
	page, err := s.cfg.Store.ListUsers(ctx, query)
	if err != nil {
		s.storeDown(w, r, err)
		return
	}
	for _, l := range page.Users {
		u := s.shown(l.User, l.Status, query.Now)
		p.Users = append(p.Users, pages.AdminUserRow{Name: u.Name, Email: u.Email, URL: s.host.URL(r, "admin", "users", url.PathEscape(u.ID)),
			Role: string(u.Role), Banned: u.Banned})
	}
	filters := url.Values{}
	for _, k := range []string{"search", "role", "banned", "limit"} {
		if v := q.Get(k); v != "" {
			filters.Set(k, v)
		}
	}
	if query.After != "" {
		p.FirstURL = withQuery(list, filters)
	}
	if page.Next != "" {
		filters.Set("after", page.Next)
		p.NextURL = withQuery(list, filters)
	}
	s.host.Render(w, r, http.StatusOK, p)
}

// withQuery returns u with the query q, if any.
func withQuery(u string, q url.Values) string {
	if len(q) == 0 {
		return u
	}
	return u + "?" + q.Encode()
}

// userPage renders GET {base}/admin/users/{id} for a browser: a form per
// action the rules allow on this user (the routes check again).
func (s *Routes) userPage(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	who, ok := s.pageDoor(ctx, w, r)
	if !ok {
		return
	}
	u, err := s.cfg.Adapter.GetUser(ctx, r.PathValue("id"))
	if errors.Is(err, adapter.ErrNotFound) {
		s.cfg.NotFound(w, r)
		return
	}
	var st admin.Status
	if err == nil {
		st, err = s.cfg.Store.UserStatus(ctx, u.ID)
	}
	now := time.Now()
	var d details
	if err == nil {
		d, err = s.details(ctx, u.ID, now)
	}
	if err != nil {
		s.storeDown(w, r, err)
		return
	}
	v := s.shown(u, st, now)
	p := pages.AdminUser{Theme: s.cfg.Theme, CSRFToken: s.host.CSRFToken(w, r), ID: u.ID, Name: u.Name, Email: u.Email,
		Role: string(v.Role), Named: v.Named, Unverified: u.EmailVerified == nil, ListURL: s.host.URL(r, "admin", "users")}
	p.Notice, p.Error = s.status(r)
	if b := st.Ban; v.Banned {
		p.Ban = &pages.AdminBan{Reason: b.Reason, ShowReason: b.ShowReason, By: b.By, At: b.At.UTC().Format(day)}
		if !b.Expires.IsZero() {
			p.Ban.Expires = b.Expires.UTC().Format(day)
		}
		if by, err := s.cfg.Adapter.GetUser(ctx, b.By); err == nil {
			p.Ban.By = cmpOr(by.Name, by.Email)
		}
	}
	for _, a := range d.Accounts {
		p.Accounts = append(p.Accounts, pages.AdminAccountRow{Provider: a.Provider, AccountID: a.ProviderAccountID})
	}
	for _, x := range d.Sessions {
		row := pages.SessionRow{ID: x.ID, Provider: x.Provider, Device: x.Device, Expires: x.Expires.Format(day)}
		if !x.Created.IsZero() {
			row.Created = x.Created.Format(day)
		}
		if !x.LastSeen.IsZero() {
			row.LastSeen = x.LastSeen.Format(day)
		}
		p.Sessions = append(p.Sessions, row)
	}
	// The rules of run, for the forms shown: nothing on oneself, nothing
	// on a named administrator, only the role and unban on another one.
	act := func(action string) string { return s.host.URL(r, "admin", "users", url.PathEscape(u.ID), action) }
	if u.ID == who.id || v.Named {
		s.host.Render(w, r, http.StatusOK, p)
		return
	}
	p.RoleURL, p.UnbanURL = act("role"), act("unban")
	if st.Role != admin.RoleAdmin {
		p.BanURL, p.RevokeSessionsURL, p.DeleteURL = act("ban"), act("revoke-sessions"), act("delete")
		if !v.Banned {
			p.ImpersonateURL = act("impersonate")
		}
		if s.cfg.Passwords != nil {
			p.PasswordURL = act("set-password")
		}
		if _, ok := s.cfg.Adapter.(adapter.SessionLister); ok && s.cfg.DatabaseSessions {
			p.RevokeSessionURL = act("revoke-session")
		}
	}
	s.host.Render(w, r, http.StatusOK, p)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Form wraps next, one of the POST routes, for the pages' forms: a
// browser's form (Accept: text/html) runs the route as it is, and is
// answered with a redirect (303) to the page it belongs to, with ?done=
// or ?failed= saying what happened, instead of the JSON; its cookies (an
// impersonation's) are kept. A signed-in user who is not an administrator
// gets 404. A program's request is served by next alone.
func (s *Routes) Form(next http.HandlerFunc) http.HandlerFunc {
	answer := httpx.FormAnswer(next, s.formAnswer)
	return func(w http.ResponseWriter, r *http.Request) {
		if httpx.AcceptsHTML(r) {
			// Someone who is not an administrator learns nothing of the
			// route, not even that its form's token was wrong.
			ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
			_, refusal, err := s.admitted(ctx, r)
			cancel()
			if err == nil && refusal == "not_admin" {
				s.cfg.NotFound(w, r)
				return
			}
		}
		answer(w, r)
	}
}

// formAnswer answers a page's form from its route's answer: the status
// and what the JSON said.
func (s *Routes) formAnswer(w http.ResponseWriter, r *http.Request, st int, body struct{ ID, Code string }) {
	action := r.PathValue("action")
	list := s.host.URL(r, "admin", "users")
	page := list
	if id := r.PathValue("id"); id != "" {
		page = s.host.URL(r, "admin", "users", url.PathEscape(id))
	}
	switch {
	case st == http.StatusNotFound && body.Code == "":
		s.cfg.NotFound(w, r) // a route that is not there
	case st == http.StatusUnauthorized:
		s.host.Redirect(w, r, s.host.URL(r, "signin")+"?"+url.Values{"callbackUrl": {page}}.Encode())
	case st == http.StatusForbidden && body.Code == "not_admin":
		s.cfg.NotFound(w, r)
	case st >= 500:
		s.storeDown(w, r, nil)
	case st/100 != 2:
		s.host.Redirect(w, r, page+"?"+url.Values{"failed": {body.Code}}.Encode())
	case action == "impersonate":
		s.host.Redirect(w, r, s.host.Origin(r)+"/") // the site, as the user sees it
	case action == "delete":
		s.host.Redirect(w, r, list+"?done=delete")
	case action == "":
		s.host.Redirect(w, r, s.host.URL(r, "admin", "users", url.PathEscape(body.ID))+"?done=create")
	default:
		s.host.Redirect(w, r, page+"?"+url.Values{"done": {action}}.Encode())
	}
}

// pageForm reports whether r is a page's form (a browser's POST), whose
// deletion needs the page's confirmation box.
func pageForm(r *http.Request) bool {
	return httpx.AcceptsHTML(r) && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")
}
