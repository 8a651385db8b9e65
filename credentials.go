package gatehouse

// The credentials providers: the application's own (its Authorize) and
// the ready-made password accounts. The sign-in itself, with what each
// step defends against, is internal/credentialsflow's; the password
// accounts' other routes are internal/passwordflow's, and
// providers/passwordaccount does their work without HTTP. Here: each
// provider checked and its flow built at New, the route
// {base}/{id}/{action}, and the Host methods only these flows need.

import (
	"context"
	"html/template"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// credentialsFlow is the flow of a credentials provider: its form posts
// to the callback, which asks the application's Authorize.
type credentialsFlow struct{ *credentials.Config }

// addCredentials checks a credentials provider and returns its flow.
func addCredentials(c credentials.Config) (flow, error) {
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	return credentialsFlow{&c}, nil
}

func (f credentialsFlow) info() providers.Base { return f.ProviderBase() }

func (credentialsFlow) crossSiteCallback() bool { return false }

func (f credentialsFlow) addTo(page *pages.SignIn, p providers.AppProvider, _ *base) {
	page.Credentials = append(page.Credentials, pages.CredentialsForm{ID: p.ID, Name: p.Name, CallbackURL: p.CallbackURL, Fields: f.fields()})
}

func (f credentialsFlow) form(path, csrf, callback string) template.HTML {
	return pages.HelperForm{Action: path + "/callback/" + f.ID, Name: f.Name, CSRF: csrf, Callback: callback, Fields: f.fields()}.Credentials()
}

// fields are the provider's inputs as the pages draw them.
func (f credentialsFlow) fields() []pages.Field {
	fs := make([]pages.Field, len(f.Fields))
	for i, x := range f.Fields {
		fs[i] = pages.Field{Name: x.Name, Label: x.Label, Type: x.Type, Placeholder: x.Placeholder, Autocomplete: x.Autocomplete, Required: x.Required}
	}
	return fs
}

// signIn: the form posts to the callback (Auth.js does the same), so a
// POST here is sent to the sign-in page.
func (credentialsFlow) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, _ url.Values) {
	httpx.Redirect(w, r, b.URL("signin"))
}

// callback answers POST {base}/callback/{id}.
func (f credentialsFlow) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	c := f.Config
	if err := credentialsflow.SignIn(w, r, c, false, h.host(), h.cfg.Logger); err != nil {
		h.site.Fail(w, r, autherr.Wrap(err, CallbackRouteError, "authorize", c.ID, "authorize"))
	}
}

// passwordFlow is a password-accounts provider.
type passwordFlow struct{ *passwordflow.Flow }

// addPassword checks a password-accounts provider and returns its flow.
func (h *Handler) addPassword(c passwordaccount.Config) (flow, error) {
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	store, ok := h.cfg.Adapter.(passwordaccount.Store)
	if !ok || !adapter.Supports[adapter.PasswordStore](h.cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a password-accounts provider needs an Adapter that keeps password hashes (adapter.PasswordStore)"}
	}
	if h.cfg.URL == "" { // as for e-mail links (email.go)
		return nil, &ConfigError{Provider: c.ID, Field: "URL", Reason: "a password-accounts provider needs Config.URL (AUTH_URL): links must not take their host from the request"}
	}
	svc, err := passwordaccount.NewService(c, store, passwordaccount.Options{Secrets: h.cfg.Secret, Logger: h.cfg.Logger, CreateUser: h.cfg.Events.CreateUser})
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	f, err := passwordflow.New(svc, passwordflow.Config{Logger: h.cfg.Logger, Theme: h.cfg.Theme,
		Events: passwordflow.Events{PasswordReset: h.cfg.Events.PasswordReset, PasswordChange: h.cfg.Events.PasswordChange, RevokeSessions: h.cfg.Events.RevokeSessions}}, h.host())
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	return passwordFlow{f}, nil
}

func (f passwordFlow) info() providers.Base { return f.Info() }

func (passwordFlow) crossSiteCallback() bool { return false }

func (f passwordFlow) addTo(page *pages.SignIn, p providers.AppProvider, b *base) {
	f.AddTo(page, p, b.URL)
}

// form is the credentials form of the provider's email and password.
func (f passwordFlow) form(path, csrf, callback string) template.HTML {
	return credentialsFlow{f.Credentials()}.form(path, csrf, callback)
}

func (f passwordFlow) signIn(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base, _ url.Values) {
	f.SignIn(w, r)
}

func (f passwordFlow) callback(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base) {
	f.Callback(w, r)
}

// passwordRoute answers {base}/{id}/{action}, for a password-accounts
// provider id.
func (h *Handler) passwordRoute(w http.ResponseWriter, r *http.Request) {
	f, ok := h.flows[r.PathValue("provider")].(passwordFlow)
	if !ok {
		httpx.WriteJSON(w, http.StatusBadRequest, "Bad request.")
		return
	}
	f.Route(w, r)
}

// CredentialsSignIn runs the credentials sign-in (internal/credentialsflow) of c's
// form, whose Authorize returns a stored user, signed in as it is.
func (s host) CredentialsSignIn(w http.ResponseWriter, r *http.Request, c *credentials.Config) error {
	return credentialsflow.SignIn(w, r, c, true, s, s.h.cfg.Logger)
}

// EndOthers ends every database session of userID but this browser's
// (internal/selfservice) and returns how many it ended.
func (s host) EndOthers(ctx context.Context, r *http.Request, userID string) (int, error) {
	return s.h.self.EndOthers(ctx, r, userID)
}
