// Package email is the e-mail (magic link) provider: the user types an
// address, receives a one-time link, and following it signs them in,
// creating the user on first use with the address marked verified.
//
//	email.Config{
//		Server: "smtps://user:password@smtp.example.com:465",
//		From:   "Example <no-reply@example.com>",
//	}
//
// Messages go out through SMTP (TLS required, see SMTP) or through the
// application's own SendVerificationRequest. The handler does the rest,
// and needs an adapter to keep the tokens:
//
//   - POST {base}/signin/{id} with email, csrfToken and callbackUrl
//     normalises and checks the address, makes a random token, stores
//     only its keyed hash with an expiry (MaxAge, 24 hours by default),
//     sends the link, and answers with the verify-request page. The answer
//     is the same whether or not a user has the address.
//   - GET {base}/callback/{id}?token=…&email=… uses the token up (single
//     use, atomically in the adapter), checks its expiry, and signs in.
package email

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/address"
	"github.com/gatehouse-auth/gatehouse/internal/linktoken"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// DefaultMaxAge is how long a sign-in link works by default (Auth.js: 24
// hours).
const DefaultMaxAge = 24 * time.Hour

// Default send limits: links asked for per DefaultSendWindow.
const (
	DefaultSendsPerIdentifier = 5
	DefaultSendsPerIP         = 30
	DefaultSendWindow         = 15 * time.Minute
)

// VerificationRequest is one sign-in link to send.
type VerificationRequest struct {
	// Identifier is the normalised address to send to.
	Identifier string
	// URL is the sign-in link. It holds the token: send it, never log it.
	URL string
	// Expires is when the link stops working.
	Expires time.Time
	// Host is the site's host, for the message's wording.
	Host string
	// Provider is the provider's configuration (From, Name, …).
	Provider Config
	// Request is the sign-in request, when there is one.
	Request *http.Request
	// Language is the language tag of the message: that of the pages the
	// request was answered with (Config.Language, else Accept-Language).
	Language string
}

// SendFunc sends a sign-in link.
type SendFunc func(ctx context.Context, req VerificationRequest) error

// Config is an e-mail provider (Auth.js EmailConfig).
type Config struct {
	// ID is the provider id: "email" when empty.
	ID string
	// Name is the display name: "Email" when empty.
	Name string
	// Server is the SMTP server as a URL, e.g.
	// "smtp://user:password@smtp.example.com:587" (STARTTLS required) or
	// "smtps://user:password@smtp.example.com:465" (TLS from the start);
	// see ParseServer. It fills SMTP.
	Server string
	// SMTP is the SMTP server as fields, when Server is empty.
	SMTP SMTP
	// From is the sender, e.g. "Example <no-reply@example.com>".
	From string
	// MaxAge is how long a link works: DefaultMaxAge when 0.
	MaxAge time.Duration
	// Template replaces the wording of the message (Message); a nil
	// part, or a nil Template, keeps the built-in one. It applies to the
	// SMTP and HTTP API senders, and to a SendVerificationRequest that
	// calls Message.
	Template *mail.Template
	// SendVerificationRequest sends the link another way (an HTTP API, a
	// queue, a test's outbox). When set, Server and SMTP are not used.
	SendVerificationRequest SendFunc
	// GenerateVerificationToken makes the token: 32 random bytes, hex,
	// when nil. A token of your own needs at least 128 bits of entropy.
	GenerateVerificationToken func() (string, error)
	// NormalizeIdentifier normalises and checks a typed address:
	// Normalize when nil. Its result is the identifier everything uses.
	NormalizeIdentifier func(address string) (string, error)
	// Secret keys the token hash instead of the handler's secrets.
	Secret string
	// APIKey is the key of an HTTP API sender (Resend, SendGrid,
	// Postmark, Mailgun, ForwardEmail, Loops) made without one: the
	// handler fills it from AUTH_<ID>_KEY when empty, as Auth.js does.
	APIKey string
	// PerIP and PerIdentifier count the links asked for per client
	// address and per e-mail address, so that the form cannot be used to
	// flood a mailbox or send mail to many addresses. Nil gives in-memory
	// limiters of this process: DefaultSendsPerIP and
	// DefaultSendsPerIdentifier per DefaultSendWindow; limit.None{}
	// switches one off. Over a limit the handler answers 429 with
	// Retry-After, for known and unknown addresses alike. With several
	// processes, give them a shared Limiter (redislimit.Limiter keeps it
	// in Redis).
	PerIP, PerIdentifier limit.Limiter
	// ClientIP returns the client address of a request, for PerIP: the
	// host of r.RemoteAddr when nil.
	ClientIP func(r *http.Request) string

	needsFrom bool // an HTTP API sender that sends From
	// apiSender: an HTTP API provider (Resend, SendGrid, …); apiKeyGiven:
	// its constructor was given the key (else APIKey must hold it).
	apiSender, apiKeyGiven bool
}

// ProviderBase returns the provider's id, name and type.
func (c Config) ProviderBase() providers.Base {
	return providers.Base{ID: cmp.Or(c.ID, "email"), Name: cmp.Or(c.Name, "Email"), Type: providers.TypeEmail}
}

// Prepare returns c with the defaults filled in, or an error naming the
// field that is wrong. The handler calls it once.
func (c Config) Prepare() (Config, error) {
	if err := providers.PrepareBase(c.ProviderBase(), &c.ID, &c.Name); err != nil {
		return c, err
	}
	fail := func(field, reason string) (Config, error) { return c, providers.FieldError(c.ID, field, reason) }
	if c.MaxAge == 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.MaxAge < 0 {
		return fail("maxAge", "is negative")
	}
	if c.NormalizeIdentifier == nil {
		c.NormalizeIdentifier = Normalize
	}
	if c.PerIP == nil {
		c.PerIP = limit.NewMemory(DefaultSendsPerIP, DefaultSendWindow)
	}
	if c.PerIdentifier == nil {
		c.PerIdentifier = limit.NewMemory(DefaultSendsPerIdentifier, DefaultSendWindow)
	}
	if c.ClientIP == nil {
		c.ClientIP = remoteIP
	}
	if c.SendVerificationRequest != nil {
		if c.needsFrom {
			if _, err := parseFrom(c.From); err != nil {
				return fail("from", err.Error())
			}
		}
		return c, nil
	}
	if c.Server != "" {
		s, err := ParseServer(c.Server)
		if err != nil {
			return fail("server", err.Error())
		}
		s.TLSConfig = c.SMTP.TLSConfig
		c.SMTP = s
	}
	if c.SMTP.Host == "" {
		return fail("server", "set Server (an SMTP URL), SMTP, or SendVerificationRequest")
	}
	s, err := c.SMTP.check()
	if err != nil {
		return fail("server", err.Error())
	}
	c.SMTP = s
	if c.From == "" {
		return fail("from", "is required to send through SMTP")
	}
	if _, err := parseFrom(c.From); err != nil {
		return fail("from", err.Error())
	}
	return c, nil
}

// Send sends req: through SendVerificationRequest when set, else through
// SMTP.
func (c Config) Send(ctx context.Context, req VerificationRequest) error {
	if c.SendVerificationRequest != nil {
		return c.SendVerificationRequest(ctx, req)
	}
	return c.SMTP.Send(ctx, c.From, req)
}

// NewToken returns a fresh token: GenerateVerificationToken's, or 32
// random bytes in hex.
func (c Config) NewToken() (string, error) {
	if c.GenerateVerificationToken != nil {
		t, err := c.GenerateVerificationToken()
		if err != nil {
			return "", err
		}
		if len(t) < 16 || len(t) > MaxTokenLen {
			return "", fmt.Errorf("email: GenerateVerificationToken made a token of %d bytes (want 16 to %d)", len(t), MaxTokenLen)
		}
		return t, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// MaxTokenLen bounds the tokens the handler accepts in a link.
const MaxTokenLen = linktoken.MaxTokenLen

// Tokens hashes the single-use tokens of links (sign-in links, and the
// password-accounts provider's confirmation and reset links) and uses
// them up. The adapter keeps only a token's keyed hash, so a copy of the
// table gives no working link.
type Tokens = linktoken.Tokens

// TokenStore is the part of an adapter.Adapter that Tokens.Use needs.
type TokenStore = linktoken.TokenStore

// NewTokens derives one hashing key per secret (newest first: tokens are
// hashed under the first, and found under any, so secrets rotate without
// breaking links in flight). salt and info name the purpose (HKDF, RFC
// 5869): tokens of one purpose never hash to another's.
func NewTokens(secrets []string, salt, info string) (*Tokens, error) {
	return linktoken.NewTokens(secrets, salt, info)
}

// The errors of Tokens.Use. Neither says more to the user than "this link
// does not work".
var (
	// ErrTokenUnknown is a token that matches no unused stored token.
	ErrTokenUnknown = linktoken.ErrTokenUnknown
	// ErrTokenExpired is a token that matched, past its expiry.
	ErrTokenExpired = linktoken.ErrTokenExpired
)

// ErrInvalidAddress is returned (wrapped, with the reason) by Normalize
// for an address a sign-in link cannot be sent to.
var ErrInvalidAddress = address.ErrInvalid

func remoteIP(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// NeedsAPIKey reports whether c is an HTTP API sender that has no key yet:
// none given to its constructor and APIKey empty.
func (c Config) NeedsAPIKey() bool { return c.apiSender && !c.apiKeyGiven && c.APIKey == "" }
