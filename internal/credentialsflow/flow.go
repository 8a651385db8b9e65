package credentialsflow

import (
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// FlowHost is what a credentials provider's routes need of the Handler:
// the sign-in's Host, the sign-in page's URL and the failure answer.
type FlowHost interface {
	Host
	URL(r *http.Request, parts ...string) string
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
}

// Flow is the sign-in of an application's credentials provider: its form
// posts to the callback, which asks the application's Authorize.
type Flow struct {
	c      *Config
	host   FlowHost
	logger *slog.Logger
}

// New returns the flow of c, already prepared.
func New(c *Config, host FlowHost, logger *slog.Logger) *Flow {
	return &Flow{c: c, host: host, logger: logger}
}

// Info returns the provider's id, name and type.
func (f *Flow) Info() providers.Base {
	return providers.Base{ID: f.c.ID, Name: f.c.Name, Type: providers.TypeCredentials}
}

// CrossSiteCallback: the form is this site's own.
func (*Flow) CrossSiteCallback() bool { return false }

// AddTo puts the provider's form on the built-in sign-in page.
func (f *Flow) AddTo(page *pages.SignIn, p providers.AppProvider, _ *site.Base) {
	page.Forms = append(page.Forms, pages.CredentialsForm{ID: p.ID, Name: p.Name, CallbackURL: p.CallbackURL, Fields: f.c.Fields})
}

// Form renders the signIn template helper's form.
func (f *Flow) Form(path string, o pages.HelperForm) template.HTML {
	return Form(f.c, path, o)
}

// SignIn answers POST {base}/signin/{id}: the form posts to the callback
// (Auth.js does the same), so the browser is sent to the sign-in page.
func (f *Flow) SignIn(w http.ResponseWriter, r *http.Request, _ url.Values) {
	httpx.Redirect(w, r, f.host.URL(r, "signin"))
}

// Callback answers POST {base}/callback/{id}: SignIn with the
// application's Authorize.
func (f *Flow) Callback(w http.ResponseWriter, r *http.Request) {
	if err := SignIn(w, r, f.c, false, f.host, f.logger); err != nil {
		f.host.Fail(w, r, autherr.Wrap(err, autherr.CallbackRouteError, "authorize", f.c.ID, "authorize"))
	}
}

// Form renders the signIn template helper's form of c: it posts to the
// callback with one input a field.
func Form(c *Config, path string, o pages.HelperForm) template.HTML {
	o.Action, o.Name, o.Fields = path+"/callback/"+c.ID, c.Name, c.Fields
	return o.Credentials()
}
