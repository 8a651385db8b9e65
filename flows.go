package gatehouse

// The provider kinds: one flow each, from the button to the session
// (oauth: flow.go; e-mail: email.go; credentials: credentials.go; passkey:
// passkey.go), and the two routes every kind shares.

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

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
	if c, ok := passkeyConfig(p); ok {
		return h.addPasskey(c) // passkey.go
	}
	switch c := p.(type) {
	case email.Config:
		return h.addEmail(c)
	case *email.Config:
		return h.addEmail(*c)
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
	return oauthFlow{rp.New(o, h.cfg.HTTPClient, h.cfg.ClockSkew, h.cfg.ProviderTimeout)}, nil
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
		h.fail(w, r, b, crossSite("signin", id, err))
		return
	}
	if h.rateLimited(w, r, b, id) {
		return
	}
	form, err := readForm(r)
	if err != nil || !h.csrf.verify(cookieValue(r, b.cookies.csrf), form.Get("csrfToken")) {
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
			h.fail(w, r, b, crossSite("callback", id, err))
			return
		}
	}
	f.callback(h, w, r, b)
}

// The signIn template helper's forms for e-mail and credentials providers.
var (
	emailFormTmpl = template.Must(template.New("email").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}"><input type="email" name="email" autocomplete="email" placeholder="email@example.com" aria-label="Email" required> <button type="submit">Sign in with {{.Name}}</button></form>`))
	// passkeyFormTmpl is run by {base}/webauthn.js, which the page must
	// load: the form only names the routes and carries the CSRF token.
	passkeyFormTmpl = template.Must(template.New("passkey").Parse(
		`<form method="post" action="{{.Action}}" data-webauthn data-options="{{.Options}}" data-callback="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}"><p data-webauthn-message role="alert" hidden></p><button type="submit" data-action="authenticate">Sign in with {{.Name}}</button></form>`))
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
	Action, Options, CSRF, Callback, Name string
	Fields                                []credentials.Field
}
