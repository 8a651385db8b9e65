package authtest

import (
	"bytes"
	"crypto/rand"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// The pages share one layout. Everything they show goes through
// html/template, which escapes it for its context.
var pages = template.Must(template.New("layout").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<style nonce="{{.Nonce}}">
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f5;color:#18181b}
main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #d4d4d8;border-radius:.75rem}
h1{font-size:1.375rem;margin:0 0 .5rem}
p{margin:0 0 1rem;color:#3f3f46}
ul{list-style:none;margin:0 0 1rem;padding:0}
li{margin:0 0 .5rem}
button{width:100%;padding:.75rem 1rem;font:inherit;text-align:left;cursor:pointer;border:1px solid #a1a1aa;border-radius:.5rem;background:#fff;color:#18181b}
button:hover{background:#f4f4f5}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
button.secondary{text-align:center;color:#3f3f46}
.email{color:#52525b}
code{font-size:.875em;overflow-wrap:anywhere}
</style>
</head>
<body>
<main>
{{template "body" .}}
</main>
{{if .Script}}<script nonce="{{.Nonce}}">document.forms[0].submit();</script>{{end}}
</body>
</html>
`))

var signInPage = template.Must(template.Must(pages.Clone()).Parse(`{{define "body"}}
<h1>Development sign-in</h1>
<p>This is a development identity provider. Choose an account to continue to <code>{{.Client}}</code>; no password is needed.</p>
<form method="post" action="{{.Action}}">
{{range .Hidden}}<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{end}}<ul aria-label="Accounts">
{{range .Users}}<li><button type="submit" name="authtest_user" value="{{.Subject}}">Continue as {{.Label}}{{if .Email}} <span class="email">&lt;{{.Email}}&gt;</span>{{end}}</button></li>
{{end}}</ul>
<button type="submit" name="authtest_cancel" value="1" class="secondary">Cancel</button>
</form>
{{end}}`))

var formPostPage = template.Must(template.Must(pages.Clone()).Parse(`{{define "body"}}
<h1>Returning to the application</h1>
<form method="post" action="{{.Action}}">
{{range .Hidden}}<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{end}}<noscript><p>JavaScript is off: press the button to continue.</p></noscript>
<button type="submit">Continue</button>
</form>
{{end}}`))

var messagePage = template.Must(template.Must(pages.Clone()).Parse(`{{define "body"}}
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{end}}`))

type hiddenField struct{ Name, Value string }

type pageUser struct{ Subject, Label, Email string }

type pageData struct {
	Title   string
	Nonce   string
	Script  bool
	Message string
	Client  string
	Action  string
	Hidden  []hiddenField
	Users   []pageUser
}

// render writes a page with security headers: a Content-Security-Policy
// that allows only the page's own style and script, and no framing.
func render(w http.ResponseWriter, status int, t *template.Template, d pageData) {
	d.Nonce = rand.Text()
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+d.Nonce+"'; script-src 'nonce-"+d.Nonce+"'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// hiddenFields returns form as hidden fields in a stable order, without
// the sign-in page's own fields.
func hiddenFields(form url.Values) []hiddenField {
	var fs []hiddenField
	for k, vs := range form {
		if strings.HasPrefix(k, "authtest_") {
			continue
		}
		for _, v := range vs {
			fs = append(fs, hiddenField{k, v})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return fs
}

// signInPage shows the "Development sign-in" page for req.
func (p *Provider) signInPage(w http.ResponseWriter, r *http.Request, req authzRequest) {
	d := pageData{
		Title:  "Development sign-in",
		Client: p.clientID,
		Action: p.prefix + "/authorize", // same origin as the page, whatever host it was reached by
		Hidden: hiddenFields(req.form),
	}
	for _, u := range p.users {
		label := u.Name
		if label == "" {
			label = u.Subject
		}
		d.Users = append(d.Users, pageUser{Subject: u.Subject, Label: label, Email: u.Email})
	}
	render(w, http.StatusOK, signInPage, d)
}

// formPostPage sends params to redirectURI by a self-submitting form
// (OAuth 2.0 Form Post Response Mode).
func (p *Provider) formPostPage(w http.ResponseWriter, redirectURI string, params url.Values) {
	render(w, http.StatusOK, formPostPage, pageData{
		Title:  "Returning to the application",
		Script: true,
		Action: redirectURI,
		Hidden: hiddenFields(params),
	})
}

// errorPage shows an error to the person, for errors that must not go to
// the client.
func (p *Provider) errorPage(w http.ResponseWriter, status int, msg string) {
	render(w, status, messagePage, pageData{Title: "Sign-in error", Message: msg})
}

// signedOutPage tells the person they are signed out.
func (p *Provider) signedOutPage(w http.ResponseWriter) {
	render(w, http.StatusOK, messagePage, pageData{Title: "Signed out", Message: "You are signed out."})
}
