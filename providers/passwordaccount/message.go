package passwordaccount

import (
	"time"

	"github.com/gatehouse-auth/gatehouse/mail"
)

// Kind is what a message is for (mail.Kind).
type Kind = mail.Kind

// The messages the provider sends.
const (
	// KindVerify confirms the address of a new account: its URL holds a
	// single-use token.
	KindVerify = mail.KindVerify
	// KindReset resets a forgotten password: its URL holds a single-use
	// token.
	KindReset = mail.KindReset
	// KindExists answers a sign-up with an address that already has an
	// account, so that the form's answer stays the one of a new sign-up:
	// it tells the owner, and its URL is the "forgot your password" page
	// (no token).
	KindExists = mail.KindExists
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
	// Language is the language tag of the message: that of the pages the
	// request was answered with (Links.Language).
	Language string
	// Template is the wording of the message's Kind from
	// Config.Templates, nil for the built-in one.
	Template *mail.Template
}

// Content returns the message's subject, plain-text body and HTML body
// (package mail): Template, with the built-in wording for the parts it
// lacks, in Language. Senders of your own can use it.
func (m Message) Content() (mail.Message, error) {
	return mail.Render(m.Template, mail.NewData(m.Kind, m.Language, m.To, remoteHost(m.Host), m.URL, m.Expires))
}
