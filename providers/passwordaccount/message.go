package passwordaccount

import (
	"html/template"
	"strings"
	"time"
)

// Kind is what a message is for.
type Kind string

// The messages the provider sends.
const (
	// KindVerify confirms the address of a new account: its URL holds a
	// single-use token.
	KindVerify Kind = "verify"
	// KindReset resets a forgotten password: its URL holds a single-use
	// token.
	KindReset Kind = "reset"
	// KindExists answers a sign-up with an address that already has an
	// account, so that the form's answer stays the one of a new sign-up:
	// it tells the owner, and its URL is the "forgot your password" page
	// (no token).
	KindExists Kind = "exists"
)

// Message is one message to send.
type Message struct {
	// Kind is what the message is for.
	Kind Kind
	// To is the normalised address to send to.
	To string
	// URL is the link to put in the message. For KindVerify and KindReset
	// it holds the token: send it, never log it.
	URL string
	// Expires is when a token link stops working; zero for KindExists.
	Expires time.Time
	// Host is the site's host, for the message's wording.
	Host string
}

// Content returns the default wording of m: a subject, a plain-text body
// and an HTML body with one button. Senders of your own can use it.
func (m Message) Content() (subject, text, html string) {
	host := remoteHost(m.Host)
	var intro, button, outro string
	switch m.Kind {
	case KindVerify:
		subject, intro, button = "Confirm your email address for "+host, "Confirm your email address to finish creating your account on "+host+".", "Confirm address"
		outro = "If you did not create an account, ignore this message."
	case KindReset:
		subject, intro, button = "Reset your password on "+host, "Someone asked to reset the password of your account on "+host+".", "Choose a new password"
		outro = "If it was not you, ignore this message: your password stays as it is."
	default:
		subject, intro, button = "Your account on "+host, "Someone tried to create an account on "+host+" with this address, which already has one.", "Reset your password"
		outro = "If it was you and you forgot your password, reset it. If not, ignore this message."
	}
	until := ""
	if !m.Expires.IsZero() {
		until = "The link works once, until " + m.Expires.UTC().Format("2 January 2006 15:04 MST") + "."
	}
	text = intro + "\n\n" + button + ": " + m.URL + "\n\n" + strings.TrimSpace(until+"\n"+outro) + "\n"
	var b strings.Builder
	_ = messageTmpl.Execute(&b, struct{ Intro, Button, URL, Until, Outro string }{intro, button, m.URL, until, outro})
	return subject, text, b.String()
}

var messageTmpl = template.Must(template.New("message").Parse(`<!doctype html>
<html><body style="background:#f5f5f7;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;color:#1c1f24">
<table role="presentation" width="100%" style="max-width:480px;margin:auto;background:#fff;border-radius:8px;padding:24px">
<tr><td style="font-size:16px;text-align:center;padding-bottom:16px">{{.Intro}}</td></tr>
<tr><td style="text-align:center;padding-bottom:16px"><a href="{{.URL}}" style="display:inline-block;padding:10px 20px;border-radius:6px;background:#2f5bd3;color:#fff;text-decoration:none;font-weight:bold">{{.Button}}</a></td></tr>
<tr><td style="font-size:14px;text-align:center;color:#555">{{with .Until}}{{.}}<br>{{end}}{{.Outro}}</td></tr>
</table></body></html>
`))
