package pages

import (
	"html/template"
	"strings"
)

// The template helpers' forms (gatehouse.Handler.Funcs: signIn and
// signOut): small forms that post to the auth routes with the CSRF token
// and the callbackUrl to come back to. Every value is escaped by the
// templates.
var (
	buttonFormTmpl = template.Must(template.New("button").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}"><button type="submit">{{.Label}}</button></form>`))
	emailFormTmpl = template.Must(template.New("email").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}"><input type="email" name="email" autocomplete="email" placeholder="email@example.com" aria-label="Email" required> <button type="submit">Sign in with {{.Name}}</button></form>`))
	credentialsFormTmpl = template.Must(template.New("credentials").Parse(
		`<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}"><input type="hidden" name="callbackUrl" value="{{.Callback}}">{{range .Fields}}<label>{{or .Label .Name}} <input type="{{or .Type "text"}}" name="{{.Name}}"{{with .Placeholder}} placeholder="{{.}}"{{end}}{{with .Autocomplete}} autocomplete="{{.}}"{{end}}{{if .Required}} required{{end}}></label> {{end}}<button type="submit">Sign in with {{.Name}}</button></form>`))
)

// HelperForm is one of the template helpers' forms: it posts to Action
// with the CSRF token and Callback as callbackUrl.
type HelperForm struct {
	Action, CSRF, Callback string
	// Label is the button's text (a plain button form).
	Label string
	// Name is the provider's name, for "Sign in with Name" (e-mail and
	// credentials forms).
	Name string
	// Fields are a credentials form's inputs.
	Fields []Field
}

// Button returns f as a form with one button labelled f.Label.
func (f HelperForm) Button() template.HTML { return run(buttonFormTmpl, f) }

// Email returns f as an e-mail sign-in form: one address input.
func (f HelperForm) Email() template.HTML { return run(emailFormTmpl, f) }

// Credentials returns f as a credentials sign-in form: one input a field.
func (f HelperForm) Credentials() template.HTML { return run(credentialsFormTmpl, f) }

func run(t *template.Template, data any) template.HTML {
	var b strings.Builder
	_ = t.Execute(&b, data)
	return template.HTML(b.String()) // escaped by the template
}
