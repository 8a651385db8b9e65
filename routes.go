package gatehouse

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// router maps the Auth.js REST routes (DESIGN.md) under the base path.
func (h *Handler) router() http.Handler {
	r := chi.NewRouter()
	route(r, h.cfg.BasePath, func(r under) {
		r.Get("/providers", h.providersJSON)
		r.Get("/csrf", h.csrfJSON)
		r.Get("/signin", h.signInPage)
		r.Post("/signin/{provider}", h.signIn)
		r.Get("/callback/{provider}", h.callback)
		r.Post("/callback/{provider}", h.callback)
		r.Get("/signout", h.signOutPage)
		r.Post("/signout", h.signOut)
		r.Get("/signout/callback/{provider}", h.signOutReturn)
		r.Post("/backchannel-logout/{provider}", h.backchannelLogout)
		r.Get("/session", h.sessionJSON)
		r.Post("/session", h.sessionUpdate)
		r.Get("/error", h.errorPage)
		r.Get("/verify-request", h.verifyRequestPage)
		r.Get("/webauthn-options/{provider}", h.webauthnOptions) // passkey.go
		r.Get("/webauthn.js", h.webauthnScript)                  // passkey.go
	})
	// Anything else under the base path is not an action (Auth.js: 400
	// "Bad request."); a known action with the wrong method too.
	bad := func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusBadRequest, "Bad request.") }
	r.NotFound(bad)
	r.MethodNotAllowed(bad)
	return r
}

func (h *Handler) providersJSON(w http.ResponseWriter, r *http.Request) {
	out := make(map[string]providers.AppProvider, len(h.order))
	for _, p := range h.Providers(r) {
		out[p.ID] = p
	}
	writeJSON(w, http.StatusOK, out)
}

// csrfToken returns the request's CSRF token, setting a new cookie when
// the request has none of ours.
func (h *Handler) csrfToken(w http.ResponseWriter, r *http.Request, b *base) string {
	if t := h.csrf.token(cookieValue(r, b.cookies.csrf)); t != "" {
		return t
	}
	// The Middleware already set a cookie for this request: its token,
	// so that a response sets the cookie once.
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h && st.csrfToken != "" && *st.base == *b {
		return st.csrfToken
	}
	t, c := h.csrf.newPair()
	b.cookies.set(w, b.cookies.csrf, c, time.Time{})
	return t
}

func (h *Handler) csrfJSON(w http.ResponseWriter, r *http.Request) {
	t := h.csrfToken(w, r, h.baseFor(r))
	writeJSON(w, http.StatusOK, map[string]string{"csrfToken": t})
}

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	q := r.URL.Query()
	if h.cfg.Pages.SignIn != "" {
		http.Redirect(w, r, h.cfg.Pages.SignIn+"?"+q.Encode(), http.StatusFound)
		return
	}
	page := pages.SignIn{
		Theme:       h.cfg.Theme,
		CSRFToken:   h.csrfToken(w, r, b),
		CallbackURL: h.callbackURL(b, q.Get("callbackUrl"), r),
		Error:       errorTypeParam(q.Get("error")),
	}
	for _, p := range h.Providers(r) {
		h.flows[p.ID].addTo(&page, p, b)
	}
	h.render(w, http.StatusOK, page)
}

func (h *Handler) signOutPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.cfg.Pages.SignOut != "" {
		http.Redirect(w, r, h.cfg.Pages.SignOut, http.StatusFound)
		return
	}
	h.render(w, http.StatusOK, pages.SignOut{
		Theme: h.cfg.Theme, CSRFToken: h.csrfToken(w, r, b), SignOutURL: b.url("signout"),
		CallbackURL: h.callbackURL(b, r.URL.Query().Get("callbackUrl"), r), HomeURL: b.origin + "/",
	})
}

// signOut answers POST {base}/signout: CSRF checked, the session ended
// (the database row deleted), the cookies cleared, the browser sent on.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if err := h.sameOrigin(r, b); err != nil {
		h.fail(w, r, b, crossSite("signout", "", err))
		return
	}
	form, err := readForm(r)
	if err != nil || !h.csrf.verify(cookieValue(r, b.cookies.csrf), form.Get("csrfToken")) {
		h.fail(w, r, b, autherr.New(MissingCSRF, "csrf", "", "signout", errors.New("CSRF token missing or wrong")))
		return
	}
	sess := h.readSession(httpDiscard{}, r, b)
	callbackURL := h.callbackURL(b, form.Get("callbackUrl"), r)
	endSession := h.endSessionURL(w, r, b, callbackURL)
	if h.cfg.Session.Strategy == StrategyDatabase {
		if raw, _ := readChunked(r, b.cookies.session); raw != "" {
			ctx, cancel := withTimeout(r.Context())
			if _, err := h.cfg.Adapter.DeleteSession(ctx, hashToken(raw)); err != nil && !errors.Is(err, adapter.ErrNotFound) {
				h.cfg.Logger.Error("gatehouse: deleting the session failed; its cookie is cleared anyway", "step", "signout", "err", err)
			}
			cancel()
		}
	}
	b.cookies.clearChunked(w, r, b.cookies.session)
	if ev := h.cfg.Events.SignOut; ev != nil && sess != nil {
		ev(r.Context(), sess)
	}
	if endSession != "" {
		h.redirect(w, r, endSession)
		return
	}
	h.redirect(w, r, callbackURL)
}

// sessionJSON answers GET {base}/session: the session, or null.
func (h *Handler) sessionJSON(w http.ResponseWriter, r *http.Request) {
	sess := h.readSession(w, r, h.baseFor(r))
	if sess != nil {
		if ev := h.cfg.Events.Session; ev != nil {
			ev(r.Context(), sess)
		}
		h.writeSessionJSON(w, sess) // fastpath.go
		return
	}
	w.Header().Set("Expires", "0")
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, nil)
}

// sessionUpdate answers POST {base}/session {csrfToken, data}: the update
// goes through the JWT callback (JWT strategy) or the Session callback.
// Failures answer 400 with null, never a redirect (Auth.js).
func (h *Handler) sessionUpdate(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if err := h.sameOrigin(r, b); err != nil {
		h.cfg.Logger.Warn("gatehouse: a cross-origin session update was refused", "step", "session", "err", err)
		writeJSON(w, http.StatusForbidden, nil)
		return
	}
	body, err := readUpdate(r)
	if err != nil || !h.csrf.verify(cookieValue(r, b.cookies.csrf), body.CSRFToken) {
		writeJSON(w, http.StatusBadRequest, nil)
		return
	}
	sess := h.readSession(w, r, b)
	if sess == nil {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	if h.cfg.Session.Strategy == StrategyJWT && h.cfg.Callbacks.JWT != nil {
		raw, _ := readChunked(r, b.cookies.session)
		codec := h.sessions[b.cookies.secure]
		t, err := codec.decode(raw, time.Now())
		if err != nil {
			writeJSON(w, http.StatusBadRequest, nil)
			return
		}
		out, err := h.cfg.Callbacks.JWT(r.Context(), JWTParams{Token: t, Trigger: "update", Session: body.Data})
		if err != nil || out == nil {
			if err != nil {
				h.cfg.Logger.Error("gatehouse: the JWT callback failed on update", "err", err)
			}
			writeJSON(w, http.StatusBadRequest, nil)
			return
		}
		out.IssuedAt, out.Expires = time.Now().Unix(), time.Now().Add(h.cfg.Session.MaxAge).Unix()
		sealed, err := codec.encode(*out)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, nil)
			return
		}
		b.cookies.writeChunked(w, r, b.cookies.session, sealed, time.Unix(out.Expires, 0))
		sess = &Session{User: out.user(), Expires: time.Unix(out.Expires, 0)}
	}
	if cb := h.cfg.Callbacks.Session; cb != nil {
		out, err := cb(r.Context(), SessionParams{Session: *sess, NewSession: body.Data, Trigger: "update"})
		if err != nil || out == nil {
			writeJSON(w, http.StatusBadRequest, nil)
			return
		}
		sess = out
	}
	writeJSON(w, http.StatusOK, sess)
}

type updateBody struct {
	CSRFToken string         `json:"csrfToken"`
	Data      map[string]any `json:"data"`
}

func readUpdate(r *http.Request) (updateBody, error) {
	var u updateBody
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxFormBytes)).Decode(&u)
		return u, err
	}
	f, err := readForm(r)
	if err != nil {
		return u, err
	}
	u.CSRFToken = f.Get("csrfToken")
	return u, nil
}

func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	q := r.URL.Query()
	t := errorTypeParam(q.Get("error"))
	code := q.Get("code")
	if !publicCode.MatchString(code) {
		code = ""
	}
	if h.cfg.Pages.Error != "" {
		http.Redirect(w, r, h.cfg.Pages.Error+"?"+q.Encode(), http.StatusFound)
		return
	}
	h.render(w, pages.ErrorStatus(t), pages.Error{Theme: h.cfg.Theme, Type: t, Code: code, SignInURL: b.url("signin"), HomeURL: b.origin + "/"})
}

func (h *Handler) verifyRequestPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.cfg.Pages.VerifyRequest != "" {
		http.Redirect(w, r, h.cfg.Pages.VerifyRequest+"?"+r.URL.Query().Encode(), http.StatusFound)
		return
	}
	u, _ := url.Parse(b.origin)
	h.render(w, http.StatusOK, pages.VerifyRequest{Theme: h.cfg.Theme, HomeURL: b.origin + "/", Host: u.Host})
}

func (h *Handler) render(w http.ResponseWriter, status int, page any) {
	if err := pages.Render(w, status, page); err != nil {
		h.cfg.Logger.Error("gatehouse: rendering a page failed", "err", err)
	}
}

// errorTypeParam keeps ?error= values to the shape of an error type, so
// that nothing an attacker puts in a link reaches a page as is.
func errorTypeParam(s string) string {
	if len(s) > 64 {
		return "Unknown"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "Unknown"
		}
	}
	return s
}
