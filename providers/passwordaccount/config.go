// Package passwordaccount is the password-accounts provider: people sign up
// with an e-mail address and a password, confirm the address by a link, and
// sign in with the two; a forgotten password is reset by a single-use link,
// and a signed-in user changes theirs by giving the current one. It is the
// ready-made alternative to writing a credentials provider's Authorize.
//
//	passwordaccount.Config{
//		Server: "smtps://user:password@smtp.example.com:465",
//		From:   "Example <no-reply@example.com>",
//	}
//
// Passwords are hashed with argon2id (package password, OWASP parameters,
// rehashed on the next sign-in when the parameters change) and chosen under
// the NIST SP 800-63B rules of a password.Policy: 8 to 128 characters, no
// composition rules, and a hook that refuses passwords known from breaches.
// The hashes are kept by the adapter (adapter.PasswordStore), apart from the
// user's row.
//
// The handler serves the routes (see the gatehouse package documentation);
// Service holds what they do without HTTP, for tests and for applications
// that serve their own routes.
//
// Every route answers the same, in the same time, for an address that has an
// account and one that has none: a sign-up with a known address mails the
// owner instead of creating anything, a reset asked for an unknown address
// sends nothing, and the differing work (storing, mailing) runs after the
// answer.
package passwordaccount

import (
	"cmp"
	"context"
	"net"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// Defaults of Config.
const (
	// DefaultVerifyMaxAge is how long an address-confirmation link works.
	DefaultVerifyMaxAge = 24 * time.Hour
	// DefaultResetMaxAge is how long a password-reset link works: short,
	// since it is as good as the password (OWASP Forgot Password Cheat
	// Sheet).
	DefaultResetMaxAge = time.Hour
)

// SendFunc sends one message of the provider.
type SendFunc func(ctx context.Context, m Message) error

// Config is a password-accounts provider.
type Config struct {
	// ID is the provider id: "password" when empty.
	ID string
	// Name is the display name: "Email and password" when empty.
	Name string
	// Policy is what a new password must meet (length, breach hook).
	Policy password.Policy
	// Hasher hashes and verifies: argon2id with password.DefaultParams
	// when nil. Give one with other parameters and stored hashes are
	// replaced at each user's next sign-in.
	Hasher *password.Hasher
	// AllowUnverified lets a user sign in before confirming the address.
	// The zero value requires the confirmation: without it, anyone could
	// create an account under someone else's address and be in it when
	// the owner arrives (account pre-hijacking). With it, the link is
	// still sent, and following it marks the address verified.
	AllowUnverified bool
	// Server, SMTP and From are the mail server and sender, as in
	// email.Config.
	Server string
	SMTP   email.SMTP
	From   string
	// Templates replace the wording of the messages, by Kind (see
	// Message.Content); a kind not in the map, or a nil part, keeps the
	// built-in one. The SMTP sender uses them, and a Send of your own
	// that calls Content.
	Templates map[Kind]*mail.Template
	// Send sends the messages another way (an HTTP API, a queue, a test's
	// outbox). When set, Server and SMTP are not used.
	Send SendFunc
	// VerifyMaxAge and ResetMaxAge are how long the links work:
	// DefaultVerifyMaxAge and DefaultResetMaxAge when 0.
	VerifyMaxAge, ResetMaxAge time.Duration
	// NormalizeIdentifier normalises and checks a typed address:
	// email.Normalize when nil.
	NormalizeIdentifier func(address string) (string, error)
	// Secret keys the link tokens' hashes instead of the handler's
	// secrets.
	Secret string
	// PerIdentifierAndIP, PerIdentifier and PerIP count sign-in attempts
	// (and current-password checks of a change) as credentials.Config's
	// limits do, with the same defaults.
	PerIdentifierAndIP, PerIdentifier, PerIP limit.Limiter
	// SendPerIP and SendPerIdentifier count the sign-ups and reset
	// requests per client address and per e-mail address, known or not,
	// so the forms cannot flood a mailbox: the e-mail provider's
	// defaults (email.DefaultSendsPerIP, email.DefaultSendsPerIdentifier
	// per email.DefaultSendWindow) when nil.
	SendPerIP, SendPerIdentifier limit.Limiter
	// ClientIP returns the client address of a request, for the limits:
	// the host of r.RemoteAddr when nil.
	ClientIP func(r *http.Request) string
}

// ProviderBase returns the provider's id, name and type. The type is
// "credentials": its sign-in form posts to {base}/callback/{id}, as the
// Auth.js client expects of that type.
func (c Config) ProviderBase() providers.Base {
	return providers.Base{ID: cmp.Or(c.ID, "password"), Name: cmp.Or(c.Name, "Email and password"), Type: providers.TypeCredentials}
}

// Prepare returns c with the defaults filled in, or an error naming the
// field that is wrong. The handler calls it once. It adds the pages'
// messages of password accounts (pages.Text) the first time it is called.
func (c Config) Prepare() (Config, error) {
	addMessages()
	if err := providers.PrepareBase(c.ProviderBase(), &c.ID, &c.Name); err != nil {
		return c, err
	}
	fail := func(field, reason string) (Config, error) { return c, providers.FieldError(c.ID, field, reason) }
	if c.VerifyMaxAge == 0 {
		c.VerifyMaxAge = DefaultVerifyMaxAge
	}
	if c.ResetMaxAge == 0 {
		c.ResetMaxAge = DefaultResetMaxAge
	}
	if c.VerifyMaxAge < 0 || c.ResetMaxAge < 0 {
		return fail("maxAge", "is negative")
	}
	if c.Hasher == nil {
		h, err := password.NewHasher(password.DefaultParams, 0)
		if err != nil {
			return fail("hasher", err.Error())
		}
		c.Hasher = h
	}
	if c.NormalizeIdentifier == nil {
		c.NormalizeIdentifier = email.Normalize
	}
	mem := func(l *limit.Limiter, n int, window time.Duration) {
		if *l == nil {
			*l = limit.NewMemory(n, window)
		}
	}
	mem(&c.PerIdentifierAndIP, credentials.DefaultPerIdentifierAndIP, credentials.DefaultWindow)
	mem(&c.PerIdentifier, credentials.DefaultPerIdentifier, credentials.DefaultWindow)
	mem(&c.PerIP, credentials.DefaultPerIP, credentials.DefaultWindow)
	mem(&c.SendPerIP, email.DefaultSendsPerIP, email.DefaultSendWindow)
	mem(&c.SendPerIdentifier, email.DefaultSendsPerIdentifier, email.DefaultSendWindow)
	if c.ClientIP == nil {
		c.ClientIP = credentials.RemoteIP
	}
	if c.Send != nil {
		return c, nil
	}
	// The mail settings are checked as the e-mail provider checks its own.
	mail, err := email.Config{ID: c.ID, Server: c.Server, SMTP: c.SMTP, From: c.From}.Prepare()
	if err != nil {
		return c, err
	}
	c.SMTP, c.From = mail.SMTP, mail.From
	smtp, from := c.SMTP, c.From
	c.Send = func(ctx context.Context, m Message) error {
		msg, err := m.Content()
		if err != nil {
			return err
		}
		return smtp.SendMessage(ctx, from, m.To, msg.Subject, msg.Text, msg.HTML)
	}
	return c, nil
}

// Hashing returns how the prepared c checks and hashes a new password,
// and its NormalizeIdentifier: how the provider finds its user. hash
// checks pw against the Policy, then hashes it with the Hasher; refused
// names the rule pw breaks (the FormError codes "too_short", "too_long",
// "breached"), with no hash and no error. The administrators' routes
// that set a password (admin.Enable) use them, so that the user signs in
// with it here; they are plain functions, so those routes do not link
// this package.
func (c Config) Hashing() (hash func(ctx context.Context, pw string) (encoded, refused string, err error), normalize func(address string) (string, error), err error) {
	p, err := c.Prepare()
	if err != nil {
		return nil, nil, err
	}
	hash = func(ctx context.Context, pw string) (string, string, error) {
		if err := p.Policy.Check(ctx, pw); err != nil {
			if code, _ := FormError(err); code != "" {
				return "", code, nil
			}
			return "", "", err
		}
		encoded, err := p.Hasher.Hash(ctx, pw)
		return encoded, "", err
	}
	return hash, p.NormalizeIdentifier, nil
}

// remoteHost strips a port from host.
func remoteHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}
