package gatehouse

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// router maps the Auth.js REST routes (DESIGN.md) under the base path.
func (h *Handler) router() http.Handler {
	r := chi.NewRouter()
	route(r, h.cfg.BasePath, func(r under) {
		r.Get("/providers", h.providersList)
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
		// The signed-in user's own account (internal/selfservice).
		r.Get("/accounts", h.self.Accounts)
		r.Post("/accounts/unlink/{provider}", h.self.Unlink)
		r.Get("/sessions", h.self.Sessions)
		r.Post("/sessions/revoke", h.self.Revoke)
		r.Post("/sessions/revoke-others", h.self.Revoke)
		r.Post("/sessions/revoke-all", h.self.Revoke)
		r.Get("/two-factor/setup", h.self.TwoFactor)
		r.Post("/two-factor/{action}", h.self.TwoFactor)
		r.Get("/two-factor", h.twoFactor.Page)    // internal/secondfactor
		r.Post("/two-factor", h.twoFactor.Verify) // internal/secondfactor
		r.Post("/session", h.sessionUpdate)
		r.Get("/error", h.site.ErrorPage)
		r.Get("/verify-request", h.site.VerifyRequestPage)
		r.Get("/webauthn-options/{provider}", h.webauthnOptions) // passkey.go
		r.Get("/webauthn.js", passkeyflow.Script)                // internal/passkeyflow
		for _, a := range passwordflow.Actions() {               // credentials.go, internal/passwordflow
			r.Get("/{provider}/"+a, h.passwordRoute)
			if a != "verify" {
				r.Post("/{provider}/"+a, h.passwordRoute)
			}
		}
	})
	// Anything else under the base path is not an action (Auth.js: 400
	// "Bad request."); a known action with the wrong method too.
	bad := func(w http.ResponseWriter, _ *http.Request) {
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
	}
	r.NotFound(bad)
	r.MethodNotAllowed(bad)
	return r
}

// The provider kinds: one flow each, from the button to the session, in
// a package of its own (internal/oauthflow, emailflow, credentialsflow,
// passwordflow, passkeyflow) and built at New by its kind's file
// (oauth.go, email.go, credentials.go, passkey.go); and the two routes
// every kind shares.

// flow is one configured provider's sign-in: *oauthflow.Flow,
// *emailflow.Flow, *credentialsflow.Flow, *passwordflow.Flow or
// *passkeyflow.Flow, each built at New by its kind's file. The routes
// below check what every kind needs (origin, rate limit, CSRF token) and
// hand over.
type flow interface {
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
	AddTo(page *pages.SignIn, p providers.AppProvider, b *base)
	// Form renders the signIn template helper's form.
	Form(path, csrf, callback string) template.HTML
}

// newFlow returns the flow of provider p (already resolved), or an error
// when p is of no kind this version knows or its kind refuses it.
func (h *Handler) newFlow(p providers.Provider) (flow, error) {
	if c, ok := passkeyflow.ConfigOf(p); ok {
		return h.addPasskey(c) // passkey.go
	}
	switch c := p.(type) {
	case email.Config:
		return h.addEmail(c) // email.go
	case *email.Config:
		return h.addEmail(*c)
	case passwordaccount.Config:
		return h.addPassword(c) // credentials.go
	case *passwordaccount.Config:
		return h.addPassword(*c)
	case credentials.Config:
		return h.addCredentials(c) // credentials.go
	case *credentials.Config:
		return h.addCredentials(*c)
	case providers.OAuthProvider:
		return h.addOAuth(c) // oauth.go
	}
	b := p.ProviderBase()
	return nil, &ConfigError{Provider: b.ID, Field: "type", Reason: fmt.Sprintf("provider type %q is not supported by this version", b.Type)}
}

// oauthProvider returns the OAuth provider with the id, if any.
func (h *Handler) oauthProvider(id string) (*rp.Provider, bool) {
	if f, ok := h.flows[id].(*oauthflow.Flow); ok {
		return f.Provider(), true
	}
	return nil, false
}

// signIn answers POST {base}/signin/{provider}: origin, rate limit and
// CSRF token checked, then the provider's own flow.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("provider")
	if err := h.site.SameOrigin(r); err != nil {
		h.site.Fail(w, r, autherr.CrossSite("signin", id, err))
		return
	}
	if h.site.RateLimited(w, r, id) {
		return
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !h.site.CSRFOK(r, form.Get("csrfToken")) {
		h.site.Fail(w, r, autherr.New(MissingCSRF, "csrf", id, "signin", errors.New("CSRF token missing or wrong")))
		return
	}
	f, ok := h.flows[id]
	if !ok {
		h.site.Fail(w, r, autherr.New(UnknownProvider, "unknown_provider", "", "signin", fmt.Errorf("no provider %q", id)))
		return
	}
	f.SignIn(w, r, form)
}

// callback answers GET and POST {base}/callback/{provider}.
func (h *Handler) callback(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("provider")
	// The callback page must not leak the code through Referer
	// (RFC 9700 §4.2.4), nor be cached.
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	if h.site.RateLimited(w, r, id) {
		return
	}
	f, ok := h.flows[id]
	if !ok {
		h.site.Fail(w, r, autherr.New(UnknownProvider, "unknown_provider", "", "callback", fmt.Errorf("no provider %q", id)))
		return
	}
	// A POST here is same-origin (credentials, passkeys), except the
	// answer of a provider that posts from its own site.
	if r.Method == http.MethodPost && !f.CrossSiteCallback() {
		if err := h.site.SameOrigin(r); err != nil {
			h.site.Fail(w, r, autherr.CrossSite("callback", id, err))
			return
		}
	}
	f.Callback(w, r)
}

func (h *Handler) providersList(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSONBytes(w, http.StatusOK, h.providersJSON(h.baseFor(r)))
}

func (h *Handler) csrfJSON(w http.ResponseWriter, r *http.Request) {
	t := h.site.CSRFToken(w, r)
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"csrfToken": t})
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
		CSRFToken:   h.site.CSRFToken(w, r),
		CallbackURL: h.site.CallbackURL(r, q.Get("callbackUrl")),
		Error:       site.ErrorTypeParam(q.Get("error")),
	}
	// After a refused credentials form, the identifier typed into it
	// (internal/credentialsflow keeps it in a cookie for a minute).
	if provider, field, typed := h.site.TakeTyped(w, r); page.Error == string(CredentialsSignin) && typed != "" {
		page.Failed, page.Values = provider, map[string]string{field: typed}
	}
	for _, p := range h.Providers(r) {
		h.flows[p.ID].AddTo(&page, p, b)
	}
	h.site.Render(w, http.StatusOK, page)
}

func (h *Handler) signOutPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.cfg.Pages.SignOut != "" {
		http.Redirect(w, r, h.cfg.Pages.SignOut, http.StatusFound)
		return
	}
	h.site.Render(w, http.StatusOK, pages.SignOut{
		Theme: h.cfg.Theme, CSRFToken: h.site.CSRFToken(w, r), SignOutURL: b.URL("signout"),
		CallbackURL: h.site.CallbackURL(r, r.URL.Query().Get("callbackUrl")), HomeURL: b.Origin + "/",
	})
}

// sessionJSON answers GET {base}/session: the session, or null.
func (h *Handler) sessionJSON(w http.ResponseWriter, r *http.Request) {
	sess, err := h.readSession(w, r, h.baseFor(r))
	if err != nil {
		selfservice.StoreUnavailable(w)
		return
	}
	if ev := h.cfg.Events.Session; ev != nil && sess != nil {
		ev(r.Context(), sess)
	}
	h.sessions.WriteJSON(w, sess) // cached (internal/sessions)
}

// sessionUpdate answers POST {base}/session {csrfToken, data}: the update
// goes through the JWT callback (JWT strategy) or the Session callback.
// Failures answer 400 with null, never a redirect (Auth.js).
func (h *Handler) sessionUpdate(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if err := h.site.SameOrigin(r); err != nil {
		h.cfg.Logger.Warn("gatehouse: a cross-origin session update was refused", "step", "session", "err", err)
		httpx.WriteJSON(w, http.StatusForbidden, nil)
		return
	}
	body, err := sessions.ReadUpdate(r)
	if err != nil || !h.site.CSRFOK(r, body.CSRFToken) {
		httpx.WriteJSON(w, http.StatusBadRequest, nil)
		return
	}
	sess, err := h.readSession(w, r, b)
	if err != nil {
		selfservice.StoreUnavailable(w)
		return
	}
	if sess == nil {
		httpx.WriteJSON(w, http.StatusOK, nil)
		return
	}
	out, ok := h.sessions.Update(r.Context(), w, r, b, sess, body.Data)
	if !ok {
		httpx.WriteJSON(w, http.StatusBadRequest, nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// DefaultRateLimit is Config.RateLimit's default: requests per minute per
// client address to the sign-in starts, callbacks and passkey ceremonies.
const DefaultRateLimit = 120

// route registers fn's routes on r under prefix, as chi's Route would but
// on r itself: a chi subrouter is mounted with a wildcard, which costs
// every request a second routing pass and four allocations.
func route(r chi.Router, prefix string, fn func(under)) { fn(under{r, prefix}) }

// under is a chi.Router's Get and Post with a path prefix.
type under struct {
	r      chi.Router
	prefix string
}

func (u under) Get(pattern string, h http.HandlerFunc)  { u.r.Get(u.prefix+pattern, h) }
func (u under) Post(pattern string, h http.HandlerFunc) { u.r.Post(u.prefix+pattern, h) }
