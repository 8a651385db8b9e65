package adminflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// maxReason bounds a ban's reason, in bytes.
const maxReason = 500

// linked is an account on the user's page: which provider, never a token.
type linked struct {
	Provider          string `json:"provider"`
	ProviderAccountID string `json:"providerAccountId"`
	Type              string `json:"type"`
}

// listedSession is a session on the user's page: never its token nor
// its hash.
type listedSession struct {
	// ID names the session for revoke-session (sessionID).
	ID       string    `json:"id"`
	Provider string    `json:"provider,omitempty"`
	Device   string    `json:"device,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	LastSeen time.Time `json:"lastSeen,omitzero"`
	Expires  time.Time `json:"expires"`
}

// target returns the user the route names ({id}), or answers 404 or 503.
func (s *Routes) target(ctx context.Context, w http.ResponseWriter, r *http.Request) (adapter.User, admin.Status, bool) {
	u, err := s.cfg.Adapter.GetUser(ctx, r.PathValue("id"))
	if errors.Is(err, adapter.ErrNotFound) {
		fail(w, http.StatusNotFound, autherr.Configuration, "no_such_user")
		return u, admin.Status{}, false
	}
	if err != nil {
		s.unavailable(w, "admin_user", err)
		return u, admin.Status{}, false
	}
	st, err := s.cfg.Store.UserStatus(ctx, u.ID)
	if err != nil {
		s.unavailable(w, "admin_user", err)
		return u, admin.Status{}, false
	}
	return u, st, true
}

// User answers GET {base}/admin/users/{id}: the user, their role and ban,
// their linked accounts (no tokens) and, with database sessions, their
// live sessions (no tokens). A browser gets the page (pages.go).
func (s *Routes) User(w http.ResponseWriter, r *http.Request) {
	s.read(w, r, s.userPage, func(ctx context.Context) {
		u, st, ok := s.target(ctx, w, r)
		if !ok {
			return
		}
		now := time.Now()
		d, err := s.details(ctx, u.ID, now)
		if err != nil {
			s.unavailable(w, "admin_user", err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, struct {
			user
			details
		}{s.shown(u, st, now), d})
	})
}

// details are a user's linked accounts and live database sessions.
type details struct {
	Accounts []linked        `json:"accounts"`
	Sessions []listedSession `json:"sessions,omitempty"`
}

// details returns the user's accounts (no tokens) and, with database
// sessions, their sessions live at now (no tokens).
func (s *Routes) details(ctx context.Context, userID string, now time.Time) (details, error) {
	out := details{Accounts: []linked{}}
	accts, err := s.cfg.Adapter.ListAccounts(ctx, userID)
	if err != nil {
		return out, err
	}
	for _, a := range accts {
		out.Accounts = append(out.Accounts, linked{Provider: a.Provider, ProviderAccountID: a.ProviderAccountID, Type: string(a.Type)})
	}
	lister, ok := s.cfg.Adapter.(adapter.SessionLister)
	if !ok || !s.cfg.DatabaseSessions {
		return out, nil
	}
	list, err := lister.ListSessions(ctx, userID)
	if err != nil {
		return out, err
	}
	for _, x := range list {
		if now.Before(x.Expires) {
			out.Sessions = append(out.Sessions, listedSession{ID: sessionID(x.Token), Provider: x.Provider, Device: x.UserAgent,
				Created: x.CreatedAt.UTC(), LastSeen: x.UpdatedAt.UTC(), Expires: x.Expires.UTC()})
		}
	}
	return out, nil
}

// Act answers POST {base}/admin/users/{id}/{action}: one of the actions
// below, 404 for another.
func (s *Routes) Act(w http.ResponseWriter, r *http.Request) {
	if s.off(w, r) {
		return
	}
	act, ok := map[string]http.HandlerFunc{
		"role": s.setRole, "ban": s.ban, "unban": s.unban, "revoke-sessions": s.revokeSessions,
		"delete": s.deleteUser, "impersonate": s.impersonate, "set-password": s.setPassword,
		"revoke-session": s.revokeSession,
	}[r.PathValue("action")]
	if !ok {
		s.cfg.NotFound(w, r)
		return
	}
	act(w, r)
}

// action is one POST route: the checks every one makes, then do.
type action struct {
	name admin.Action
	// fresh: the route needs a fresh sign-in. self: the administrator
	// may act on themselves. onAdmins: the route may target another
	// administrator (by role; one Config names never).
	fresh, self, onAdmins bool
	do                    func(ctx context.Context, form url.Values, u adapter.User, e *admin.Event) error
}

// errBadRequest marks a form an action refuses; its text is the code.
type errBadRequest string

func (e errBadRequest) Error() string { return string(e) }

// errRefused is Config.BeforeDelete's refusal.
var errRefused = errors.New("refused")

// run serves one action: the POST checked (origin, CSRF), the
// administrator, the fresh sign-in, the target and the rules on it, the
// change, its event, and the user as they are now.
func (s *Routes) run(w http.ResponseWriter, r *http.Request, a action) {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	form, who, ok := s.checkPost(ctx, w, r, a.fresh)
	if !ok {
		return
	}
	u, st, ok := s.target(ctx, w, r)
	if !ok {
		return
	}
	switch {
	case u.ID == who.id && !a.self:
		fail(w, http.StatusForbidden, autherr.AccessDenied, "self")
		return
	case u.ID != who.id && s.cfg.Admin.Named(u):
		fail(w, http.StatusForbidden, autherr.AccessDenied, "protected")
		return
	case u.ID != who.id && !a.onAdmins && st.Role == admin.RoleAdmin:
		fail(w, http.StatusForbidden, autherr.AccessDenied, "protected")
		return
	}
	now := time.Now()
	ev := admin.Event{Action: a.name, ActorID: who.id, TargetID: u.ID, At: now, IP: s.cfg.ClientIP(r), UserAgent: r.UserAgent()}
	if err := a.do(ctx, form, u, &ev); err != nil {
		var bad errBadRequest
		switch {
		case errors.As(err, &bad):
			fail(w, http.StatusBadRequest, autherr.Configuration, string(bad))
		case errors.Is(err, errRefused):
			fail(w, http.StatusForbidden, autherr.AccessDenied, "refused")
		case errors.Is(err, orgcore.ErrLastOwner):
			fail(w, http.StatusConflict, autherr.AccessDenied, "last_owner")
		case errors.Is(err, errNoSession):
			fail(w, http.StatusNotFound, autherr.SessionRequired, "no_such_session")
		case errors.Is(err, adapter.ErrNotFound):
			fail(w, http.StatusNotFound, autherr.Configuration, "no_such_user") // deleted meanwhile
		default:
			s.unavailable(w, "admin_"+string(a.name), err)
		}
		return
	}
	if s.cfg.Event != nil {
		s.cfg.Event(r.Context(), ev)
	}
	if a.name == admin.ActionDeleteUser {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"deleted": u.ID})
		return
	}
	st, err := s.cfg.Store.UserStatus(ctx, u.ID)
	if err != nil {
		s.unavailable(w, "admin_"+string(a.name), err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, s.shown(u, st, now))
}

// checkPost checks an action's POST: its origin and CSRF token, then the
// administrator, whose sign-in must be fresh when fresh is set. It
// returns the form and the administrator, or answers (403, 401, 503).
func (s *Routes) checkPost(ctx context.Context, w http.ResponseWriter, r *http.Request, fresh bool) (url.Values, actor, bool) {
	form, e := s.host.CheckPost(r, "admin")
	if e != nil {
		w.Header().Set("Cache-Control", "no-store")
		fail(w, http.StatusForbidden, e.Type, e.Code)
		return nil, actor{}, false
	}
	who, ok := s.door(ctx, w, r)
	if ok && fresh && !who.fresh {
		fail(w, http.StatusForbidden, autherr.SessionRequired, "fresh_sign_in")
		ok = false
	}
	return form, who, ok
}

// endSessions deletes the user's database sessions, when the adapter can,
// and counts them in e; the JWT sessions end by the revocation time the
// caller stored.
func (s *Routes) endSessions(ctx context.Context, userID string, e *admin.Event) error {
	rv, ok := s.cfg.Adapter.(adapter.SessionRevoker)
	if !ok {
		return nil
	}
	var err error
	e.Sessions, err = rv.DeleteUserSessions(ctx, userID)
	return err
}

// setRole answers POST {base}/admin/users/{id}/role {csrfToken, role}.
func (s *Routes) setRole(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionSetRole, fresh: true, onAdmins: true,
		do: func(ctx context.Context, form url.Values, u adapter.User, e *admin.Event) error {
			e.Role = admin.Role(form.Get("role"))
			if !e.Role.Valid() {
				return errBadRequest("invalid_role")
			}
			return s.cfg.Store.SetUserRole(ctx, u.ID, e.Role)
		}})
}

// ban answers POST {base}/admin/users/{id}/ban {csrfToken, reason,
// showReason ("1"), expiresIn (seconds; none: until unbanned)}: the ban is
// stored first, then the user's sessions are ended, so that a session
// made in between is refused by the ban (internal/sessions).
func (s *Routes) ban(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionBan, fresh: true,
		do: func(ctx context.Context, form url.Values, u adapter.User, e *admin.Event) error {
			b := admin.Ban{Reason: form.Get("reason"), ShowReason: form.Get("showReason") == "1" || form.Get("showReason") == "true",
				By: e.ActorID, At: e.At}
			if len(b.Reason) > maxReason {
				return errBadRequest("reason_too_long")
			}
			if in := form.Get("expiresIn"); in != "" {
				secs, err := strconv.ParseInt(in, 10, 64)
				if err != nil || secs <= 0 || secs > 100*365*24*3600 {
					return errBadRequest("invalid_expiry")
				}
				b.Expires = e.At.Add(time.Duration(secs) * time.Second)
			}
			if err := s.cfg.Store.BanUser(ctx, u.ID, b); err != nil {
				return err
			}
			e.Ban = &b
			return s.endSessions(ctx, u.ID, e)
		}})
}

// unban answers POST {base}/admin/users/{id}/unban {csrfToken}.
func (s *Routes) unban(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionUnban, onAdmins: true,
		do: func(ctx context.Context, _ url.Values, u adapter.User, _ *admin.Event) error {
			return s.cfg.Store.UnbanUser(ctx, u.ID)
		}})
}

// revokeSessions answers POST {base}/admin/users/{id}/revoke-sessions
// {csrfToken}: every session of the user ends, JWT sessions included.
func (s *Routes) revokeSessions(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionRevokeSessions,
		do: func(ctx context.Context, _ url.Values, u adapter.User, e *admin.Event) error {
			if err := s.cfg.Store.RevokeSessions(ctx, u.ID, e.At); err != nil {
				return err
			}
			return s.endSessions(ctx, u.ID, e)
		}})
}

// deleteUser answers POST {base}/admin/users/{id}/delete {csrfToken}: the
// user and everything stored of them, after Config.BeforeDelete agrees;
// with organizations on, 409 last_owner for the only owner of an
// organization. A page's form must carry its ticked confirmation box
// (confirm=1).
func (s *Routes) deleteUser(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionDeleteUser, fresh: true,
		do: func(ctx context.Context, form url.Values, u adapter.User, _ *admin.Event) error {
			if pageForm(r) && form.Get("confirm") != "1" {
				return errBadRequest("confirm")
			}
			if hook := s.cfg.Admin.BeforeDelete; hook != nil {
				if err := hook(ctx, u.ID); err != nil {
					s.cfg.Logger.Info("gatehouse: BeforeDelete refused a deletion", "step", "admin_delete", "err", err)
					return errRefused
				}
			}
			return s.purge(ctx, u.ID)
		}})
}

// impersonate answers POST {base}/admin/users/{id}/impersonate
// {csrfToken}: this browser sees the application as the user for
// admin.Config.ImpersonationAge, never an administrator nor a banned
// user (internal/sessions has the rules).
func (s *Routes) impersonate(w http.ResponseWriter, r *http.Request) {
	s.run(w, r, action{name: admin.ActionImpersonate, fresh: true,
		do: func(ctx context.Context, _ url.Values, u adapter.User, e *admin.Event) error {
			st, err := s.cfg.Store.UserStatus(ctx, u.ID)
			if err != nil {
				return err
			}
			if st.Ban.Active(e.At) {
				return errBadRequest("banned")
			}
			return s.host.Impersonate(w, r, e.ActorID, u.ID, e.At.Add(s.cfg.Admin.ImpersonationAge()))
		}})
}

// StopImpersonating answers POST {base}/admin/stop-impersonating
// {csrfToken}: this browser sees the application as its administrator
// again. 409 when it was not impersonating.
func (s *Routes) StopImpersonating(w http.ResponseWriter, r *http.Request) {
	if s.off(w, r) {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if _, e := s.host.CheckPost(r, "admin"); e != nil {
		fail(w, http.StatusForbidden, e.Type, e.Code)
		return
	}
	adminID, userID, ok := s.host.StopImpersonating(w, r)
	if !ok {
		fail(w, http.StatusConflict, autherr.SessionRequired, "not_impersonating")
		return
	}
	if s.cfg.Event != nil {
		s.cfg.Event(r.Context(), admin.Event{Action: admin.ActionStopImpersonating, ActorID: adminID, TargetID: userID,
			At: time.Now(), IP: s.cfg.ClientIP(r), UserAgent: r.UserAgent()})
	}
	if httpx.AcceptsHTML(r) { // the banner's form on a built-in page
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"stopped": userID})
}
