package email

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// TLSMode is how the connection to an SMTP server is protected.
type TLSMode string

// The TLS modes.
const (
	// TLSStartTLS upgrades the connection with STARTTLS (RFC 3207) and
	// refuses to go on without it: the default, on port 587.
	TLSStartTLS TLSMode = "starttls"
	// TLSImplicit speaks TLS from the first byte (RFC 8314 §3.3): the
	// default on port 465 and for smtps:// URLs.
	TLSImplicit TLSMode = "implicit"
	// TLSNone sends in the clear. It is allowed only to a loopback host,
	// such as a development mail catcher on localhost.
	TLSNone TLSMode = "none"
)

// SMTP is an SMTP server to send through, with go-mail
// (github.com/wneessen/go-mail).
type SMTP struct {
	// Host is the server's host name or address.
	Host string
	// Port is 587 for STARTTLS, 465 for implicit TLS and 25 without TLS
	// when 0.
	Port int
	// Username and Password authenticate when Username is set (the
	// strongest mechanism both sides know; never before TLS is up).
	Username, Password string
	// TLS is the protection: TLSImplicit when Port is 465, else
	// TLSStartTLS, when empty.
	TLS TLSMode
	// TLSConfig verifies the server: the system roots and Host when nil.
	TLSConfig *tls.Config
	// Timeout bounds connecting and each command: 15 seconds when 0.
	Timeout time.Duration
}

// ParseServer reads an SMTP URL:
//
//	smtp://[user[:password]@]host[:port]            STARTTLS required, port 587
//	smtps://[user[:password]@]host[:port]           implicit TLS, port 465
//	smtp://localhost:1025?tls=none                  no TLS, loopback hosts only
//
// The user and password are URL-decoded (write '@' as %40).
func ParseServer(raw string) (SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return SMTP{}, errors.New("is not a URL") // the URL may hold a password: not repeated
	}
	var s SMTP
	switch u.Scheme {
	case "smtp":
		s.TLS = TLSStartTLS
	case "smtps":
		s.TLS = TLSImplicit
	default:
		return SMTP{}, fmt.Errorf("has scheme %q; want smtp or smtps", u.Scheme)
	}
	if u.Path != "" && u.Path != "/" || u.Fragment != "" {
		return SMTP{}, errors.New("has a path or fragment")
	}
	s.Host = u.Hostname()
	if p := u.Port(); p != "" {
		if s.Port, err = strconv.Atoi(p); err != nil {
			return SMTP{}, errors.New("has an invalid port")
		}
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	for k, v := range u.Query() {
		switch {
		case k == "tls" && len(v) == 1 && u.Scheme == "smtp" && (v[0] == "none" || v[0] == "starttls"):
			s.TLS = TLSMode(v[0])
		default:
			return SMTP{}, fmt.Errorf("has an unknown parameter %q (only tls=none or tls=starttls, with smtp://)", k)
		}
	}
	return s, nil
}

// check fills the defaults and refuses what is unsafe.
func (s SMTP) check() (SMTP, error) {
	if s.Host == "" {
		return s, errors.New("has no host")
	}
	if s.TLS == "" {
		s.TLS = TLSStartTLS
		if s.Port == 465 {
			s.TLS = TLSImplicit
		}
	}
	switch s.TLS {
	case TLSStartTLS, TLSImplicit:
	case TLSNone:
		if !isLoopback(s.Host) {
			return s, fmt.Errorf("sends without TLS to %q; that is allowed only to a loopback host", s.Host)
		}
	default:
		return s, fmt.Errorf("has unknown TLS mode %q", s.TLS)
	}
	if s.Port == 0 {
		s.Port = map[TLSMode]int{TLSStartTLS: 587, TLSImplicit: 465, TLSNone: 25}[s.TLS]
	}
	if s.Port < 1 || s.Port > 65535 {
		return s, errors.New("has an invalid port")
	}
	if s.Timeout <= 0 {
		s.Timeout = 15 * time.Second
	}
	return s, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Send sends req's link from from through the server, as a message with a
// plain-text and an HTML part (see Message).
func (s SMTP) Send(ctx context.Context, from string, req VerificationRequest) error {
	m, err := Message(req)
	if err != nil {
		return err
	}
	return s.SendMessage(ctx, from, req.Identifier, m.Subject, m.Text, m.HTML)
}

// SendMessage sends one message from from to the address to through the
// server, with a plain-text and an HTML part: the sending of Send, for
// messages of another wording (the password-accounts provider's).
func (s SMTP) SendMessage(ctx context.Context, from, to, subject, text, html string) error {
	s, err := s.check()
	if err != nil {
		return err
	}
	m := gomail.NewMsg()
	if err := m.From(from); err != nil {
		return fmt.Errorf("email: From: %w", err)
	}
	if err := m.To(to); err != nil {
		return fmt.Errorf("email: To: %w", err)
	}
	m.Subject(subject)
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(gomail.TypeTextPlain, text)
	m.AddAlternativeString(gomail.TypeTextHTML, html)

	opts := []gomail.Option{gomail.WithPort(s.Port), gomail.WithTimeout(s.Timeout)}
	tc := &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	if s.TLSConfig != nil {
		tc = s.TLSConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = s.Host
		}
	}
	switch s.TLS {
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL(), gomail.WithTLSConfig(tc))
	case TLSStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory), gomail.WithTLSConfig(tc))
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if s.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(s.Username), gomail.WithPassword(s.Password))
	}
	c, err := gomail.NewClient(s.Host, opts...)
	if err != nil {
		return fmt.Errorf("email: SMTP client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("email: sending through %s:%d: %w", s.Host, s.Port, err)
	}
	return nil
}

// parseFrom checks a From value: one address, with an optional name.
func parseFrom(from string) (*mail.Address, error) {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("%q is not one address: %v", from, err)
	}
	return a, nil
}

// hostOnly strips a port from host.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}
