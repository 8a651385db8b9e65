package gatehouse

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/limit"
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
		r.Get("/error", h.errorPage)
		r.Get("/verify-request", h.verifyRequestPage)
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

// The provider kinds: one flow each, from the button to the session
// (oauth: oauth.go; e-mail: email.go; credentials: credentials.go; password
// accounts: credentials.go and internal/passwordflow; passkey:
// passkey.go), and the two routes every kind shares.

// flow is one configured provider's sign-in. The routes below check what
// every kind needs (origin, rate limit, CSRF token) and hand over.
type flow interface {
	// info returns the provider's id, name and type.
	info() providers.Base
	// signIn answers POST {base}/signin/{id} once the origin, the rate
	// limit and the CSRF token have been checked.
	signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, form url.Values)
	// callback answers {base}/callback/{id} once the rate limit, and the
	// origin of a POST unless crossSiteCallback, have been checked.
	callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base)
	// crossSiteCallback reports whether the provider itself posts the
	// callback from its own site (OAuth's response_mode=form_post).
	crossSiteCallback() bool
	// addTo puts the provider on the built-in sign-in page.
	addTo(page *pages.SignIn, p providers.AppProvider, b *base)
	// form renders the signIn template helper's form.
	form(path, csrf, callback string) template.HTML
}

// newFlow returns the flow of provider p (already resolved), or nil when
// p is of no kind this version knows. OAuth providers are validated here;
// the other kinds by their add functions.
func (h *Handler) newFlow(p providers.Provider) (flow, error) {
	if c, ok := passkeyflow.ConfigOf(p); ok {
		return h.addPasskey(c) // passkey.go
	}
	switch c := p.(type) {
	case email.Config:
		return h.addEmail(c)
	case *email.Config:
		return h.addEmail(*c)
	case passwordaccount.Config:
		return h.addPassword(c)
	case *passwordaccount.Config:
		return h.addPassword(*c)
	case credentials.Config:
		return addCredentials(c)
	case *credentials.Config:
		return addCredentials(*c)
	}
	op, ok := p.(providers.OAuthProvider)
	if !ok {
		b := p.ProviderBase()
		return nil, &ConfigError{Provider: b.ID, Field: "type", Reason: fmt.Sprintf("provider type %q is not supported by this version", b.Type)}
	}
	o := op.OAuth()
	h.envDefaults(o)
	if err := o.Validate(); err != nil {
		return nil, providerConfigError(o.ID, err)
	}
	rpp := rp.New(o, h.cfg.HTTPClient, h.cfg.ClockSkew, h.cfg.ProviderTimeout)
	return oauthFlow{rpp, oauthflow.New(rpp, oauthflow.Config{Sealer: h.sealer, RedirectProxyURL: h.cfg.RedirectProxyURL, BasePath: h.cfg.BasePath}, host{h})}, nil
}

// oauthProvider returns the OAuth provider with the id, if any.
func (h *Handler) oauthProvider(id string) (*rp.Provider, bool) {
	f, ok := h.flows[id].(oauthFlow)
	return f.Provider, ok
}

// signIn answers POST {base}/signin/{provider}: origin, rate limit and
// CSRF token checked, then the provider's own flow.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	id := r.PathValue("provider")
	if err := h.sameOrigin(r, b); err != nil {
		h.fail(w, r, b, autherr.CrossSite("signin", id, err))
		return
	}
	if h.rateLimited(w, r, b, id) {
		return
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !h.csrfOK(r, b, form.Get("csrfToken")) {
		h.fail(w, r, b, autherr.New(MissingCSRF, "csrf", id, "signin", errors.New("CSRF token missing or wrong")))
		return
	}
	f, ok := h.flows[id]
	if !ok {
		h.fail(w, r, b, autherr.New(UnknownProvider, "unknown_provider", "", "signin", fmt.Errorf("no provider %q", id)))
		return
	}
	f.signIn(h, w, r, b, form)
}

// callback answers GET and POST {base}/callback/{provider}.
func (h *Handler) callback(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	id := r.PathValue("provider")
	// The callback page must not leak the code through Referer
	// (RFC 9700 §4.2.4), nor be cached.
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	if h.rateLimited(w, r, b, id) {
		return
	}
	f, ok := h.flows[id]
	if !ok {
		h.fail(w, r, b, autherr.New(UnknownProvider, "unknown_provider", "", "callback", fmt.Errorf("no provider %q", id)))
		return
	}
	// A POST here is same-origin (credentials, passkeys), except the
	// answer of a provider that posts from its own site.
	if r.Method == http.MethodPost && !f.crossSiteCallback() {
		if err := h.sameOrigin(r, b); err != nil {
			h.fail(w, r, b, autherr.CrossSite("callback", id, err))
			return
		}
	}
	f.callback(h, w, r, b)
}

func (h *Handler) providersList(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSONBytes(w, http.StatusOK, h.providersJSON(h.baseFor(r)))
}

// csrfToken returns the request's CSRF token, setting a new cookie when
// the request has none of ours.
func (h *Handler) csrfToken(w http.ResponseWriter, r *http.Request, b *base) string {
	if t := h.csrf.Token(sessioncookie.Value(r, b.Cookies.CSRF)); t != "" {
		return t
	}
	// The Middleware already set a cookie for this request: its token,
	// so that a response sets the cookie once.
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h && st.csrfToken != "" && st.base.Same(b) {
		return st.csrfToken
	}
	t, c := h.csrf.NewPair()
	b.Cookies.Set(w, b.Cookies.CSRF, c, time.Time{})
	return t
}

func (h *Handler) csrfJSON(w http.ResponseWriter, r *http.Request) {
	t := h.csrfToken(w, r, h.baseFor(r))
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
		Theme: h.cfg.Theme, CSRFToken: h.csrfToken(w, r, b), SignOutURL: b.URL("signout"),
		CallbackURL: h.callbackURL(b, r.URL.Query().Get("callbackUrl"), r), HomeURL: b.Origin + "/",
	})
}

// sessionJSON answers GET {base}/session: the session, or null.
func (h *Handler) sessionJSON(w http.ResponseWriter, r *http.Request) {
	sess, err := h.readSession(w, r, h.baseFor(r))
	if err != nil {
		selfservice.StoreUnavailable(w)
		return
	}
	if sess != nil {
		if ev := h.cfg.Events.Session; ev != nil {
			ev(r.Context(), sess)
		}
		h.writeSessionJSON(w, sess) // cached: session.go
		return
	}
	writeNoSession(w) // session.go
}

// sessionUpdate answers POST {base}/session {csrfToken, data}: the update
// goes through the JWT callback (JWT strategy) or the Session callback.
// Failures answer 400 with null, never a redirect (Auth.js).
func (h *Handler) sessionUpdate(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if err := h.sameOrigin(r, b); err != nil {
		h.cfg.Logger.Warn("gatehouse: a cross-origin session update was refused", "step", "session", "err", err)
		httpx.WriteJSON(w, http.StatusForbidden, nil)
		return
	}
	body, err := readUpdate(r)
	if err != nil || !h.csrfOK(r, b, body.CSRFToken) {
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
	if h.cfg.Session.Strategy == StrategyJWT && h.cfg.Callbacks.JWT != nil {
		raw, _ := sessioncookie.ReadChunked(r, b.Cookies.Session)
		codec := h.sessions[b.Cookies.Secure]
		t, err := codec.Decode(raw, time.Now())
		if err != nil {
			httpx.WriteJSON(w, http.StatusBadRequest, nil)
			return
		}
		out, err := h.cfg.Callbacks.JWT(r.Context(), JWTParams{Token: t, Trigger: "update", Session: body.Data})
		if err != nil || out == nil {
			if err != nil {
				h.cfg.Logger.Error("gatehouse: the JWT callback failed on update", "err", err)
			}
			httpx.WriteJSON(w, http.StatusBadRequest, nil)
			return
		}
		out.IssuedAt, out.Expires, out.AuthTime = time.Now().Unix(), time.Now().Add(h.cfg.Session.MaxAge).Unix(), t.AuthTime
		sealed, err := codec.Encode(*out)
		if err != nil {
			httpx.WriteJSON(w, http.StatusBadRequest, nil)
			return
		}
		b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, time.Unix(out.Expires, 0))
		sess = &Session{User: out.user(), Expires: time.Unix(out.Expires, 0)}
	}
	if cb := h.cfg.Callbacks.Session; cb != nil {
		out, err := cb(r.Context(), SessionParams{Session: *sess, NewSession: body.Data, Trigger: "update"})
		if err != nil || out == nil {
			httpx.WriteJSON(w, http.StatusBadRequest, nil)
			return
		}
		sess = out
	}
	httpx.WriteJSON(w, http.StatusOK, sess)
}

type updateBody struct {
	CSRFToken string         `json:"csrfToken"`
	Data      map[string]any `json:"data"`
}

func readUpdate(r *http.Request) (updateBody, error) {
	var u updateBody
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, httpx.MaxFormBytes)).Decode(&u)
		return u, err
	}
	f, err := httpx.ReadForm(r)
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
	if !autherr.PublicCode(code) {
		code = ""
	}
	if h.cfg.Pages.Error != "" {
		http.Redirect(w, r, h.cfg.Pages.Error+"?"+q.Encode(), http.StatusFound)
		return
	}
	status := pages.ErrorStatus(t)
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "5") // the database: usually back within seconds
	}
	h.render(w, status, pages.Error{Theme: h.cfg.Theme, Type: t, Code: code, SignInURL: b.URL("signin"), HomeURL: b.Origin + "/"})
}

func (h *Handler) verifyRequestPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.cfg.Pages.VerifyRequest != "" {
		http.Redirect(w, r, h.cfg.Pages.VerifyRequest+"?"+r.URL.Query().Encode(), http.StatusFound)
		return
	}
	u, _ := url.Parse(b.Origin)
	h.render(w, http.StatusOK, pages.VerifyRequest{Theme: h.cfg.Theme, HomeURL: b.Origin + "/", Host: u.Host})
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

// fail logs e with everything a developer needs, and sends the browser to
// the sign-in page (errors the user can fix by trying again) or the error
// page with ?error=<Type>&code=<Code>. Nothing of e.Err reaches the URL.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, b *base, e *Error) {
	h.cfg.Logger.Error("gatehouse: "+string(e.Type), "code", e.Code, "provider", e.Provider, "step", e.Step, "err", e.Err)
	if ev := h.cfg.Events.Failure; ev != nil {
		ev(r.Context(), e)
	}
	switch e.Type {
	case MissingCSRF, InvalidCheck, AccountLinkMismatch, WebAuthnVerificationError:
		// A cookie that was there but read as missing may be a planted
		// duplicate: say so.
		h.warnDuplicate(r, b)
	}
	q := url.Values{"error": {string(e.Type)}}
	if e.Code != "" {
		q.Set("code", e.Code)
	}
	target := b.Path + "/error?" + q.Encode()
	if h.cfg.Pages.Error != "" {
		target = h.cfg.Pages.Error + "?" + q.Encode()
	}
	if e.Type.OnSignIn() {
		// Keep where the visitor was going, so that trying again from the
		// sign-in page lands there: the form's callbackUrl (credentials,
		// e-mail) or the one saved when an OAuth sign-in began. Auth.js
		// reads its callback-url cookie on the sign-in page to the same
		// end. callbackURL keeps it same-origin; the home page, the
		// default, is left out, and the origin is dropped.
		if cb := cmp.Or(r.PostForm.Get("callbackUrl"), sessioncookie.Value(r, b.Cookies.CallbackURL)); cb != "" {
			if path := strings.TrimPrefix(h.callbackURL(b, cb, r), b.Origin); path != "/" {
				q.Set("callbackUrl", path)
			}
		}
		target = b.Path + "/signin?" + q.Encode()
		if h.cfg.Pages.SignIn != "" {
			target = h.cfg.Pages.SignIn + "?" + q.Encode()
		}
	}
	httpx.Redirect(w, r, target)
}

// callbackURL resolves where to send the browser after sign-in or
// sign-out: raw when it is same-origin (Redirect callback or the default
// policy), else the origin's root. It never returns another origin's URL:
// a Redirect callback's answer is checked too.
func (h *Handler) callbackURL(b *base, raw string, r *http.Request) string {
	home := b.Origin + "/"
	if raw == "" {
		return home
	}
	if cb := h.cfg.Callbacks.Redirect; cb != nil {
		raw = cb(raw, b.Origin)
	}
	if safe := checks.SafeRedirect(raw, b.Origin); safe != "" {
		return safe
	}
	return home
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// The signIn template helper's forms for e-mail and credentials providers.
var (
	emailFormTmpl = template.Must(template.New("email").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}"><input type="email" name="email" autocomplete="email" placeholder="email@example.com" aria-label="Email" required> <button type="submit">Sign in with {{.Name}}</button></form>`))
	credentialsFormTmpl = template.Must(template.New("credentials").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}">{{range .Fields}}<label>{{or .Label .Name}} <input type="{{or .Type "text"}}" name="{{.Name}}"{{with .Placeholder}} placeholder="{{.}}"{{end}}{{with .Autocomplete}} autocomplete="{{.}}"{{end}}{{if .Required}} required{{end}}></label> {{end}}<button type="submit">Sign in with {{.Name}}</button></form>`))
)

// renderForm runs one of the form templates above.
func renderForm(t *template.Template, data any) template.HTML {
	var b strings.Builder
	_ = t.Execute(&b, data)
	return template.HTML(b.String()) // escaped by the template
}

// formData is what the form templates read.
type formData struct {
	Action, CSRF, Callback, Name string
	Fields                       []credentials.Field
}

// tooManyAttempts answers a locked-out attempt: 429 with Retry-After
// (RFC 6585 §4), as the error page, or as {url} for a client that asked
// with X-Auth-Return-Redirect.
func (h *Handler) tooManyAttempts(w http.ResponseWriter, r *http.Request, b *base, provider string, wait time.Duration) {
	secs := int((wait + time.Second - 1) / time.Second)
	h.cfg.Logger.Warn("gatehouse: "+string(TooManyRequests), "provider", provider, "step", "limit", "retry_after_s", secs)
	if ev := h.cfg.Events.Failure; ev != nil {
		ev(r.Context(), autherr.New(TooManyRequests, fmt.Sprintf("retry_after_%d", secs), provider, "limit", nil))
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	q := url.Values{"error": {string(TooManyRequests)}}
	target := b.Path + "/signin?" + q.Encode()
	if h.cfg.Pages.SignIn != "" {
		target = h.cfg.Pages.SignIn + "?" + q.Encode()
	}
	if r.Header.Get("X-Auth-Return-Redirect") != "" {
		httpx.WriteJSON(w, http.StatusTooManyRequests, map[string]string{"url": target})
		return
	}
	h.render(w, http.StatusTooManyRequests, pages.Error{Theme: h.cfg.Theme, Type: string(TooManyRequests),
		Code: fmt.Sprintf("retry_after_%d", secs), SignInURL: b.URL("signin"), HomeURL: b.Origin + "/"})
}

// DefaultRateLimit is Config.RateLimit's default: requests per minute per
// client address to the sign-in starts, callbacks and passkey ceremonies.
const DefaultRateLimit = 120

// rateLimited answers 429 with Retry-After, and reports true, when r's
// client address is over Config.RateLimit. A limiter that fails refuses
// (fail closed).
func (h *Handler) rateLimited(w http.ResponseWriter, r *http.Request, b *base, provider string) bool {
	wait, err := h.cfg.RateLimit.Reserve(r.Context(), limit.IPKey(h.cfg.ClientIP(r))) // a limiter of its own: no prefix
	if err != nil {
		h.cfg.Logger.Error("gatehouse: the rate limiter failed; the request is refused", "provider", provider, "step", "limit", "err", err)
		wait = time.Minute
	}
	if wait <= 0 {
		return false
	}
	h.tooManyAttempts(w, r, b, provider, wait)
	return true
}

// sameOrigin refuses a state-changing request a browser sent from another
// origin (checks.SameOrigin).
func (h *Handler) sameOrigin(r *http.Request, b *base) error {
	return checks.SameOrigin(h.crossOrigin, r, b.Origin)
}

// checkPost checks a state-changing form POST of this site's own pages
// (sign-out, the account and session routes): sent from this origin
// (checks.SameOrigin) and carrying the CSRF token of this browser's cookie.
// It returns the form, or the error to report.
func (h *Handler) checkPost(r *http.Request, b *base, step string) (url.Values, *Error) {
	if err := h.sameOrigin(r, b); err != nil {
		return nil, autherr.CrossSite(step, "", err)
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !h.csrfOK(r, b, form.Get("csrfToken")) {
		return nil, autherr.New(MissingCSRF, "csrf", "", step, errors.New("CSRF token missing or wrong"))
	}
	return form, nil
}

// csrfOK reports whether submitted is the CSRF token of r's CSRF cookie
// (checks.CSRF: the signed double-submit cookie).
func (h *Handler) csrfOK(r *http.Request, b *base, submitted string) bool {
	return h.csrf.Verify(sessioncookie.Value(r, b.Cookies.CSRF), submitted)
}

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
