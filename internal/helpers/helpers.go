// Package helpers makes the template helpers the root package's
// Handler.Funcs binds to a request: signIn and signOut forms and the CSRF
// token. The root adds session, and decides which CSRF token a request
// has (its Middleware's state).
package helpers

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// ErrNoCSRFToken is the helpers' error for a request that has no CSRF
// token (gatehouse.ErrNoCSRFToken).
var ErrNoCSRFToken = errors.New("no CSRF token for this request: wrap the application with Handler.Middleware, or render with Handler.Execute")

// Map returns signIn, signOut and csrfToken for r, whose CSRF token is
// *csrf when a helper runs (the request's state, which may get one), with the routes under path and the providers' flows by id. r is
// nil when templates are parsed: the helpers then fail on nothing, and
// write forms without a token or a callbackUrl.
func Map(s *site.Site, path string, flows map[string]plugin.Flow, r *http.Request, csrf *string) template.FuncMap {
	here := ""
	if r != nil {
		here = r.URL.RequestURI()
	}
	token := func(helper string) (string, error) {
		// A form is never rendered with an empty token.
		if *csrf == "" && r != nil {
			return "", fmt.Errorf("gatehouse: %s: %w", helper, ErrNoCSRFToken)
		}
		return *csrf, nil
	}
	// form reads a helper's options: the button's label and class, and
	// where to land, kept same-origin as every callbackUrl is.
	form := func(helper string, opts []string) (pages.HelperForm, error) {
		label, class, cb, err := pages.HelperOptions(helper, opts)
		if err != nil {
			return pages.HelperForm{}, err
		}
		tok, err := token(helper)
		o := pages.HelperForm{CSRF: tok, Callback: here, Label: label, Class: class}
		if r != nil {
			o.Lang = s.Lang(r).Tag
			if cb != "" {
				o.Callback = s.CallbackURL(r, cb)
			}
		}
		return o, err
	}
	return template.FuncMap{
		"signIn": func(id string, opts ...string) (template.HTML, error) {
			f, ok := flows[id]
			if !ok {
				return "", fmt.Errorf("gatehouse: signIn: no provider %q", id)
			}
			o, err := form("signIn", opts)
			return f.Form(path, o), err
		},
		"signOut": func(opts ...string) (template.HTML, error) {
			o, err := form("signOut", opts)
			o.Action, o.Label = path+"/signout", cmp.Or(o.Label, pages.Text(o.Lang, "signout.title"))
			return o.Button(), err
		},
		"csrfToken": func() (string, error) { return token("csrfToken") },
	}
}
