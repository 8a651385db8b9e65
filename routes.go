package gatehouse

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// router maps the Auth.js REST routes, relative to the base path: ServeHTTP
// hands it each request with a route context of its own whose RoutePath
// is the request's path below the base path (site.Stripper).
func (h *Handler) router() *chi.Mux {
	r := chi.NewRouter()
	for _, rt := range h.routeTable() {
		r.MethodFunc(rt.method, rt.pattern, rt.handler)
	}
	// Anything else is not an action: 404, and 405 with Allow for a known
	// action with the wrong method (below).
	r.NotFound(h.notFound)
	r.MethodNotAllowed(h.methodNotAllowed)
	return r
}

// route is one of the handler's routes, relative to the base path.
type route struct {
	method, pattern string
	handler         http.HandlerFunc
}

// routeTable lists the handler's routes, relative to the base path.
func (h *Handler) routeTable() []route {
	get := func(pattern string, fn http.HandlerFunc) route { return route{http.MethodGet, pattern, fn} }
	post := func(pattern string, fn http.HandlerFunc) route { return route{http.MethodPost, pattern, fn} }
	rs := []route{
		get("/providers", h.providersList),
		get("/csrf", h.csrfJSON),
		get("/signin", h.signInPage),
		// GET {base}/signin/{provider}: the sign-in page for that provider
		// (Auth.js renders its sign-in page there too).
		get("/signin/{provider}", h.signInPage),
		post("/signin/{provider}", h.signIn),
		get("/callback/{provider}", h.callback),
		post("/callback/{provider}", h.callback),
		get("/signout", h.signOutPage),
		post("/signout", h.signOut),
		get("/signout/callback/{provider}", h.signOutReturn),
		post("/backchannel-logout/{provider}", h.backchannelLogout),
		get("/session", h.sessionJSON),
		post("/session", h.sessionUpdate),
		get("/error", h.site.ErrorPage),
	}
	// Two-factor sign-in (internal/twofactorflow): the settings, and the
	// second step of a sign-in. Off, the settings are not there and the
	// step sends the browser to sign in.
	if f := h.twoFactor; f != nil {
		rs = append(rs, get("/two-factor/setup", h.twoFactorSettings), post("/two-factor/{action}", h.twoFactorSettings),
			get("/two-factor", f.Page), post("/two-factor", f.Verify))
	} else {
		toSignIn := func(w http.ResponseWriter, r *http.Request) { httpx.Redirect(w, r, h.site.URL(r, "signin")) }
		rs = append(rs, get("/two-factor/setup", h.notFound), post("/two-factor/{action}", h.notFound),
			get("/two-factor", toSignIn), post("/two-factor", toSignIn))
	}
	// The routes of the features Config turns on (internal/plugin): the
	// signed-in user's accounts and sessions (internal/selfservice), then
	// the others'.
	for _, rt := range h.selfService {
		rs = append(rs, route{rt.Method, rt.Pattern, rt.Handler})
	}
	for _, f := range []interface{ Routes() []plugin.Route }{h.orgs, h.keys, h.admin} {
		if f == nil { // off
			continue
		}
		for _, rt := range f.Routes() {
			rs = append(rs, route{rt.Method, rt.Pattern, rt.Handler})
		}
	}
	// The routes of the providers that have their own, once each:
	// {base}/{id}/{action} (password accounts: credentials.go,
	// plugin.Router), and directly under {base} (e-mail, passkeys:
	// plugin.BaseRouter).
	seen := map[string]bool{}
	for _, id := range h.order {
		if f, ok := h.flows[id].(plugin.BaseRouter); ok {
			for _, rt := range f.BaseRoutes() {
				if !seen[rt.Pattern] {
					seen[rt.Pattern] = true
					rs = append(rs, route{rt.Method, rt.Pattern, rt.Handler})
				}
			}
		}
		f, ok := h.flows[id].(plugin.Router)
		if !ok {
			continue
		}
		for _, a := range f.Actions() {
			if seen[a] {
				continue
			}
			seen[a] = true
			rs = append(rs, get("/{provider}/"+a, h.passwordRoute))
			if a != "verify" {
				rs = append(rs, post("/{provider}/"+a, h.passwordRoute))
			}
		}
	}
	if !seen["/verify-request"] { // served, for Pages.VerifyRequest (below)
		rs = append(rs, get("/verify-request", h.notFound))
	}
	for i, rt := range rs { // a page the application replaced (Config.Pages)
		if to := site.Pages(h.cfg.Pages).ForRoute(rt.pattern); to != "" && rt.method == http.MethodGet {
			rs[i].handler = site.RedirectTo(to)
		}
	}
	return rs
}

// routeContexts recycles the chi route contexts ServeHTTP gives the
// router, as chi's own Mux does.
var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// ServeHTTP answers the auth routes. It routes on the request's path
// alone, with a chi route context of its own: the route context of a chi
// router the Handler is mounted in (Mount, Route, Handle) is not read, so
// it serves the same routes however it is mounted. The path may arrive
// whole or with the base path stripped (site.Stripper).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := h.strip.Path(r)
	if r.URL.RawPath == "" && h.direct(w, r, path) {
		return
	}
	rctx := routeContexts.Get().(*chi.Context)
	rctx.Reset()
	rctx.Routes = h.routes
	rctx.RoutePath = path
	h.routes.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), chi.RouteCtxKey, rctx)))
	routeContexts.Put(rctx)
}

// direct answers the routes a page or a script calls most, GET
// {base}/session, GET {base}/providers and POST {base}/signin/{provider},
// matched on path (site.Stripper) as the router matches them but without it
// (the router copies the request into a context of its own, two
// allocations), and reports whether it did.
func (h *Handler) direct(w http.ResponseWriter, r *http.Request, path string) bool {
	switch {
	case r.Method == http.MethodGet && (path == "/session" || path == "/providers"):
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/signin/"):
		if id := path[len("/signin/"):]; id == "" || strings.IndexByte(id, '/') >= 0 {
			return false
		}
	default:
		return false
	}
	switch path {
	case "/session":
		h.sessionJSON(w, r)
	case "/providers":
		h.providersList(w, r)
	default:
		h.signInAt(w, r, path[len("/signin/"):])
	}
	return true
}

// checkBasePath refuses a base path that a stripped path could be taken
// for (site.Stripper): one that a route's path is, or starts with
// (site.BasePathClash; a leading {provider} is a route only for a
// password-accounts provider's id).
func (h *Handler) checkBasePath() error {
	var patterns []string
	for _, rt := range h.routeTable() {
		patterns = append(patterns, rt.pattern)
	}
	leading := func(seg string) bool { _, ok := h.flows[seg].(plugin.Router); return ok }
	if p := site.BasePathClash(h.cfg.BasePath, patterns, leading); p != "" {
		return &ConfigError{Field: "BasePath", Reason: fmt.Sprintf("%q is also the path of a route under it (%s): "+
			"a request whose base path was stripped (http.StripPrefix) could not be told from one whose was not", h.cfg.BasePath, p)}
	}
	return nil
}

// The provider kinds: one flow each, from the button to the session, in
// a package of its own (internal/oauthflow, credentialsflow, emailflow,
// passkeyflow; providers/passwordaccount), and the two routes every kind
// shares.

// flow is one configured provider's sign-in (internal/plugin): built at
// New by its kind's file (oauth.go, credentials.go), or by the package
// the application configured it with (providers/passkey, email,
// passwordaccount: plugin.Provider), which the root does not import. The
// routes below check what every kind needs (origin, rate limit, CSRF
// token) and hand over.
type flow = plugin.Flow

// newFlow returns the flow of provider p (already resolved), or an error
// when p is of no kind this version knows or its kind refuses it.
func (h *Handler) newFlow(p providers.Provider) (flow, error) {
	if pp, ok := p.(plugin.Provider); ok {
		f, err := pp.NewFlow(h.env)
		var ce *ConfigError
		if err != nil && !errors.As(err, &ce) {
			err = providerConfigError(p.ProviderBase().ID, err)
		}
		return f, err
	}
	if c, ok := p.(providers.OAuthProvider); ok {
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
	h.signInAt(w, r, r.PathValue("provider"))
}

// signInAt is signIn for the provider id.
func (h *Handler) signInAt(w http.ResponseWriter, r *http.Request, id string) {
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
	httpx.WriteJSONBytes(w, http.StatusOK, plugin.ProvidersJSON(h.order, h.flows, h.baseFor(r)))
}

func (h *Handler) csrfJSON(w http.ResponseWriter, r *http.Request) {
	t := h.site.CSRFToken(w, r)
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"csrfToken": t})
}

// signInPage answers GET {base}/signin, and GET {base}/signin/{provider}
// with that provider alone on the page.
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
	// GET {base}/signin/{provider}: that provider's part of the page
	// alone; the whole page for an id of no provider.
	_, one := h.flows[r.PathValue("provider")]
	// After a refused credentials form, the identifier typed into it
	// (internal/credentialsflow keeps it in a cookie for a minute).
	if provider, field, typed := h.site.TakeTyped(w, r); page.Error == string(CredentialsSignin) && typed != "" {
		page.Failed, page.Values = provider, map[string]string{field: typed}
	}
	for _, p := range h.Providers(r) {
		if !one || p.ID == r.PathValue("provider") {
			h.flows[p.ID].AddTo(&page, p, b)
		}
	}
	h.site.Render(w, r, http.StatusOK, page)
}

func (h *Handler) signOutPage(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	if h.cfg.Pages.SignOut != "" {
		http.Redirect(w, r, h.cfg.Pages.SignOut, http.StatusFound)
		return
	}
	h.site.Render(w, r, http.StatusOK, pages.SignOut{
		Theme: h.cfg.Theme, CSRFToken: h.site.CSRFToken(w, r), SignOutURL: b.URL("signout"),
		CallbackURL: h.site.CallbackURL(r, r.URL.Query().Get("callbackUrl")), HomeURL: b.Origin + "/",
	})
}

// sessionJSON answers GET {base}/session: the session, or null.
func (h *Handler) sessionJSON(w http.ResponseWriter, r *http.Request) {
	sess, err := h.readSession(w, r, h.baseFor(r))
	if err != nil {
		httpx.StoreUnavailable(w)
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
		httpx.StoreUnavailable(w)
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

// DefaultRateLimit is Config.RateLimit's default: requests per minute per
// client address to the sign-in starts, callbacks and passkey ceremonies.
const DefaultRateLimit = 120

// newWrongAnswers builds the 404 and 405 answers.
// (site.WrongAnswer), their pages linking to the sign-in page.
func (h *Handler) newWrongAnswers() (err error) {
	signIn := cmp.Or(h.cfg.Pages.SignIn, h.cfg.BasePath+"/signin")
	if h.notFoundAnswer, err = site.NewWrongAnswer(h.cfg.Theme, signIn, http.StatusNotFound, "wrong.notFound", "wrong.notFoundText"); err != nil {
		return err
	}
	h.methodAnswer, err = site.NewWrongAnswer(h.cfg.Theme, signIn, http.StatusMethodNotAllowed, "wrong.method", "wrong.methodText")
	return err
}

// notFound answers a path under the base path that is no route: 404.
func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.notFoundAnswer.Write(w, r, h.site.Lang(r))
}

// methodNotAllowed answers a route asked with a method it does not take:
// 405, with the methods it takes in Allow.
func (h *Handler) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	path := "/"
	if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
		path = rctx.RoutePath
	}
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if h.routes.Match(chi.NewRouteContext(), m, path) {
			allow = append(allow, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	h.methodAnswer.Write(w, r, h.site.Lang(r))
}
