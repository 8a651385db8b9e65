// Package mail renders the e-mails Gatehouse sends (the e-mail
// provider's sign-in link, the password-account provider's confirmation,
// reset and "you already have an account" messages): a subject, a
// plain-text body and an HTML body, worded from the message catalogue of
// the pages (pages.Text, pages.AddMessages) in the language of the request
// that asked for the message.
//
// An application replaces the wording of a message by setting the
// message's Template (email.Config.Template,
// passwordaccount.Config.Templates); a nil part keeps the built-in one.
// The sender stays the library's.
package mail

import (
	"cmp"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// Kind is what a message is for; its catalogue keys are "mail.<kind>.*".
type Kind string

// The messages the library sends.
const (
	// KindSignIn is the e-mail provider's sign-in link.
	KindSignIn Kind = "signin"
	// KindVerify confirms the address of a new password account.
	KindVerify Kind = "verify"
	// KindReset resets a forgotten password.
	KindReset Kind = "reset"
	// KindExists tells the owner of an address of a sign-up with it.
	KindExists Kind = "exists"
	// KindInvitation invites the address into an organization
	// (NewInvitation).
	KindInvitation Kind = "invitation"
)

// Data is what a message's templates are executed with.
type Data struct {
	// Kind is what the message is for.
	Kind Kind
	// Lang is the language tag of the message, e.g. "de".
	Lang string
	// To is the address the message goes to.
	To string
	// Host is the site's host, without a port.
	Host string
	// URL is the link of the message. A token link holds its token: it
	// belongs in the message and nowhere else.
	URL string
	// Expires is when the link stops working; zero for a link that does
	// not expire.
	Expires time.Time
	// Subject, Intro, Button, Until and Ignore are the built-in wording
	// of the message in Lang (catalogue keys mail.<kind>.subject, .intro,
	// .button and .ignore, and mail.until), for templates that only
	// change the layout. Until is "" when the link does not expire.
	Subject, Intro, Button, Until, Ignore string
	// Organization and Role are the organization an invitation is to and
	// the role it gives (KindInvitation); "" for the other kinds.
	Organization, Role string
}

// T returns the catalogue message key in the message's language, with
// args put in (pages.Text): {{.T "mail.signin.button"}}.
func (d Data) T(key string, args ...any) string { return pages.Text(d.Lang, key, args...) }

// IntroHTML is Intro for an HTML body: escaped, with a zero-width space
// after each dot of the host so that mail clients do not turn it into a
// link of their own (as Auth.js does).
func (d Data) IntroHTML() htmltemplate.HTML {
	msg := htmltemplate.HTMLEscapeString(d.T("mail." + string(d.Kind) + ".intro"))
	if d.Kind == KindInvitation {
		// The organization's name and the role are members' input:
		// escaped like the rest.
		return htmltemplate.HTML(fmt.Sprintf(msg, htmltemplate.HTMLEscapeString(d.Organization), htmltemplate.HTMLEscapeString(d.Role)))
	}
	host := strings.ReplaceAll(htmltemplate.HTMLEscapeString(d.Host), ".", ".&#8203;")
	return htmltemplate.HTML(fmt.Sprintf(msg, host))
}

// Template is the wording of one kind of message. Each part is executed
// with a Data; a nil part keeps the built-in one.
type Template struct {
	Subject *texttemplate.Template
	Text    *texttemplate.Template
	HTML    *htmltemplate.Template
}

// Message is a rendered message.
type Message struct {
	Subject, Text, HTML string
}

// NewData returns the Data of a message of kind k in the language tag
// lang, to the address to, with the built-in wording filled in. expires
// is zero for a link that does not expire.
func NewData(k Kind, lang, to, host, link string, expires time.Time) Data {
	addMessages()
	d := Data{Kind: k, Lang: lang, To: to, Host: host, URL: link, Expires: expires}
	key := "mail." + string(k) + "."
	d.Subject, d.Intro = d.T(key+"subject", host), d.T(key+"intro", host)
	d.Button, d.Ignore = d.T(key+"button"), d.T(key+"ignore")
	if !expires.IsZero() {
		// A date without month names reads the same in every language.
		d.Until = d.T("mail.until", expires.UTC().Format("2006-01-02 15:04 MST"))
	}
	return d
}

// NewInvitation returns the Data of an invitation into the organization
// org with the role, in the language tag lang: NewData's, with the
// organization's name in the subject and both in the introduction.
func NewInvitation(lang, to, host, link, org, role string, expires time.Time) Data {
	d := NewData(KindInvitation, lang, to, host, link, expires)
	d.Organization, d.Role = org, role
	d.Subject = d.T("mail.invitation.subject", org)
	d.Intro = d.T("mail.invitation.intro", org, role)
	return d
}

// Render renders d with t's parts, the built-in ones for those t lacks
// (t may be nil). The subject is one line: line breaks a template or a
// message puts in it become spaces, so that nothing can add a header.
func Render(t *Template, d Data) (Message, error) {
	addMessages() // for Data an application made itself
	var own Template
	if t != nil {
		own = *t
	}
	def := defaults()
	subject, text, html := cmp.Or(own.Subject, def.Subject), cmp.Or(own.Text, def.Text), cmp.Or(own.HTML, def.HTML)
	var m Message
	var b strings.Builder
	if err := subject.Execute(&b, d); err != nil {
		return m, fmt.Errorf("mail: the %s subject: %w", d.Kind, err)
	}
	m.Subject = strings.Join(strings.Fields(b.String()), " ")
	b.Reset()
	if err := text.Execute(&b, d); err != nil {
		return m, fmt.Errorf("mail: the %s text: %w", d.Kind, err)
	}
	m.Text = b.String()
	b.Reset()
	if err := html.Execute(&b, d); err != nil {
		return m, fmt.Errorf("mail: the %s HTML: %w", d.Kind, err)
	}
	m.HTML = b.String()
	return m, nil
}

// The built-in templates, one layout for every kind, are parsed on the
// first Render, not at package initialisation, so that a program that
// imports the package but sends no mail neither parses them at start-up
// nor links the template parsers. (A package-level sync.OnceValue would
// still reference the parsing code from the package's initialisation.)
var (
	defaultsOnce sync.Once
	builtin      Template
)

// defaults returns the built-in templates.
func defaults() Template {
	defaultsOnce.Do(parseDefaults)
	return builtin
}

func parseDefaults() {
	builtin = Template{
		Subject: texttemplate.Must(texttemplate.New("subject").Parse(`{{.Subject}}`)),
		Text: texttemplate.Must(texttemplate.New("text").Parse(`{{.Intro}}

{{.Button}}: {{.URL}}

{{with .Until}}{{.}}
{{end}}{{.Ignore}}
`)),
		HTML: htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html lang="{{.Lang}}"><body style="background:#f5f5f7;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;color:#1c1f24">
<table role="presentation" width="100%" style="max-width:480px;margin:auto;background:#fff;border-radius:8px;padding:24px">
<tr><td style="font-size:18px;text-align:center;padding-bottom:16px">{{.IntroHTML}}</td></tr>
<tr><td style="text-align:center;padding-bottom:16px"><a href="{{.URL}}" style="display:inline-block;padding:10px 20px;border-radius:6px;background:#2f5bd3;color:#fff;text-decoration:none;font-weight:bold">{{.Button}}</a></td></tr>
<tr><td style="font-size:14px;text-align:center;color:#555">{{with .Until}}{{.}}<br>{{end}}{{.Ignore}}</td></tr>
</table></body></html>
`)),
	}
}
