package gatehouse

// The provider kinds besides OAuth 2.0 and OpenID Connect, as the handler
// registers, lists and renders them.

import (
	"html/template"
	"strings"

	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// addNonOAuth adds p when it is an e-mail or credentials provider, and
// reports whether it was one.
func (h *Handler) addNonOAuth(p providers.Provider) (bool, error) {
	switch c := p.(type) {
	case email.Config:
		return true, h.addEmail(c)
	case *email.Config:
		return true, h.addEmail(*c)
	case credentials.Config:
		return true, h.addCredentials(c)
	case *credentials.Config:
		return true, h.addCredentials(*c)
	}
	return false, nil
}

// hasProvider reports whether a provider has id.
func (h *Handler) hasProvider(id string) bool {
	_, passkey := h.passkeyProvider(id)
	return h.oauth[id] != nil || h.email[id] != nil || h.creds[id] != nil || passkey
}

// providerBase returns the id, name and type of provider id.
func (h *Handler) providerBase(id string) providers.Base {
	if p, ok := h.passkeyProvider(id); ok {
		return p.cfg.ProviderBase()
	}
	switch {
	case h.email[id] != nil:
		return h.email[id].cfg.ProviderBase()
	case h.creds[id] != nil:
		return h.creds[id].ProviderBase()
	case h.oauth[id] != nil:
		c := h.oauth[id].Config()
		return providers.Base{ID: c.ID, Name: c.Name, Type: c.Type}
	}
	return providers.Base{ID: id}
}

func pageFields(fs []credentials.Field) []pages.Field {
	out := make([]pages.Field, len(fs))
	for i, f := range fs {
		out[i] = pages.Field{Name: f.Name, Label: f.Label, Type: f.Type, Placeholder: f.Placeholder, Autocomplete: f.Autocomplete, Required: f.Required}
	}
	return out
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

// nonOAuthForm renders the signIn helper's form for an e-mail,
// credentials or passkey provider. A passkey form needs the page to load
// {base}/webauthn.js, which runs the ceremony.
func (h *Handler) nonOAuthForm(id, csrf, callback string) (template.HTML, bool) {
	data := struct {
		Action, Options, CSRF, Callback, Name string
		Fields                                []credentials.Field
	}{CSRF: csrf, Callback: callback}
	var t *template.Template
	switch {
	case h.email[id] != nil:
		t, data.Action, data.Name = emailFormTmpl, h.cfg.BasePath+"/signin/"+id, h.email[id].cfg.Name
	case h.creds[id] != nil:
		c := h.creds[id]
		t, data.Action, data.Name, data.Fields = credentialsFormTmpl, h.cfg.BasePath+"/callback/"+id, c.Name, c.Fields
	default:
		p, ok := h.passkeyProvider(id)
		if !ok {
			return "", false
		}
		t, data.Action, data.Name = passkeyFormTmpl, h.cfg.BasePath+"/callback/"+id, p.cfg.Name
		data.Options = h.cfg.BasePath + "/webauthn-options/" + id
	}
	var b strings.Builder
	_ = t.Execute(&b, data)
	return template.HTML(b.String()), true // escaped by the template
}
