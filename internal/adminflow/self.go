package adminflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// DeleteSelf answers POST {base}/account/delete {csrfToken}: the
// signed-in user deletes their own account and everything stored of them
// (admin.Config.SelfDelete; 404 without it). It needs a fresh sign-in, as
// a stolen session cookie must not be enough, and Config.BeforeDelete's
// consent; with organizations on, the only owner of an organization gets
// 409 last_owner (they hand it over first). The browser is signed out.
func (s *Routes) DeleteSelf(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Admin == nil || !s.cfg.Admin.SelfDelete {
		s.cfg.NotFound(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, _, ok := s.freshUser(ctx, w, r, "account_delete")
	if !ok {
		return
	}
	u, err := s.cfg.Adapter.GetUser(ctx, id)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		fail(w, http.StatusUnauthorized, autherr.SessionRequired, "no_session")
		return
	case err != nil:
		s.unavailable(w, "account_delete", err)
		return
	case s.cfg.Admin.Named(u):
		fail(w, http.StatusForbidden, autherr.AccessDenied, "protected")
		return
	}
	if hook := s.cfg.Admin.BeforeDelete; hook != nil {
		if err := hook(ctx, id); err != nil {
			s.cfg.Logger.Info("gatehouse: BeforeDelete refused a deletion", "step", "account_delete", "err", err)
			fail(w, http.StatusForbidden, autherr.AccessDenied, "refused")
			return
		}
	}
	switch err := s.purge(ctx, id); {
	case errors.Is(err, orgcore.ErrLastOwner):
		fail(w, http.StatusConflict, autherr.AccessDenied, "last_owner")
		return
	case err != nil && !errors.Is(err, adapter.ErrNotFound):
		s.unavailable(w, "account_delete", err)
		return
	}
	s.host.SignOutHere(w, r)
	if s.cfg.Event != nil {
		s.cfg.Event(r.Context(), admin.Event{Action: admin.ActionDeleteSelf, ActorID: id, TargetID: id, At: time.Now(),
			IP: s.cfg.ClientIP(r), UserAgent: r.UserAgent()})
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"deleted": id})
}

// freshUser checks a POST of the signed-in user's own routes (origin,
// CSRF token) and returns the form and the user, who must have signed in
// within FreshAge; otherwise it answers: 403, 401, or 503.
func (s *Routes) freshUser(ctx context.Context, w http.ResponseWriter, r *http.Request, step string) (string, url.Values, bool) {
	w.Header().Set("Cache-Control", "no-store")
	form, e := s.host.CheckPost(r, step)
	if e != nil {
		fail(w, http.StatusForbidden, e.Type, e.Code)
		return "", nil, false
	}
	id, at, err := s.host.CurrentUser(ctx, r)
	switch {
	case err != nil:
		s.unavailable(w, step, err)
		return "", nil, false
	case id == "":
		fail(w, http.StatusUnauthorized, autherr.SessionRequired, "no_session")
		return "", nil, false
	case at.IsZero() || time.Since(at) > s.cfg.FreshAge:
		fail(w, http.StatusForbidden, autherr.SessionRequired, "fresh_sign_in")
		return "", nil, false
	}
	return id, form, true
}
