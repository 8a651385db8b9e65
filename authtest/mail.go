package authtest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// MailServer is a real SMTP server on loopback that keeps what it
// receives, for tests of e-mail sign-in (like httptest.Server for mail).
// It speaks SMTP through github.com/emersion/go-smtp: with TLSConfig it
// offers STARTTLS, with Username it requires AUTH PLAIN, after TLS when
// TLS is offered.
type MailServer struct {
	srv  *smtp.Server
	ln   net.Listener
	opts MailOptions
	msgs chan Message
	mu   sync.Mutex
	all  []Message
}

// MailOptions configure a MailServer. The zero value is a plain server
// without authentication.
type MailOptions struct {
	// TLSConfig, when set, makes the server offer STARTTLS.
	TLSConfig *tls.Config
	// Implicit makes the server speak TLS from the first byte (port 465
	// style) instead of offering STARTTLS. It needs TLSConfig.
	Implicit bool
	// Username and Password, when Username is set, are the only
	// credentials the server accepts; mail without them is refused.
	Username, Password string
}

// Message is one received message.
type Message struct {
	From string
	To   []string
	// Raw is the message as received (headers and body).
	Raw []byte
	// Subject is the decoded Subject header.
	Subject string
	// Text and HTML are the decoded plain-text and HTML bodies.
	Text, HTML string
	// TLS and Auth tell whether the message came over TLS, and after
	// AUTH.
	TLS, Auth bool
}

var linkRe = regexp.MustCompile(`https?://[^\s"<>]+`)

// Link returns the first http(s) URL in the plain-text body.
func (m Message) Link() string { return linkRe.FindString(m.Text) }

// NewMailServer starts a MailServer on 127.0.0.1 with a random port.
// Close it when done.
func NewMailServer(opts MailOptions) (*MailServer, error) {
	if opts.Implicit && opts.TLSConfig == nil {
		return nil, errors.New("authtest: Implicit needs a TLSConfig")
	}
	var ln net.Listener
	var err error
	if opts.Implicit {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", opts.TLSConfig)
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, err
	}
	s := &MailServer{ln: ln, opts: opts, msgs: make(chan Message, 100)}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &mailSession{s: s, conn: c}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	s.srv.MaxMessageBytes = 1 << 20
	s.srv.AllowInsecureAuth = opts.TLSConfig == nil
	if !opts.Implicit {
		s.srv.TLSConfig = opts.TLSConfig
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Addr returns the server's host:port.
func (s *MailServer) Addr() string { return s.ln.Addr().String() }

// URL returns an SMTP URL for the server, as e-mail providers take it:
// smtp://127.0.0.1:port?tls=none without TLS, smtp://… (STARTTLS) or
// smtps://… (implicit TLS) with it; with the credentials when set.
func (s *MailServer) URL() string {
	scheme, query := "smtp", "?tls=none"
	if s.opts.TLSConfig != nil {
		query = ""
		if s.opts.Implicit {
			scheme = "smtps"
		}
	}
	user := ""
	if s.opts.Username != "" {
		user = urlUser(s.opts.Username, s.opts.Password) + "@"
	}
	return scheme + "://" + user + s.Addr() + query
}

// Next waits for the next message not yet taken, until ctx ends.
func (s *MailServer) Next(ctx context.Context) (Message, error) {
	select {
	case m := <-s.msgs:
		return m, nil
	case <-ctx.Done():
		return Message{}, fmt.Errorf("authtest: no message arrived: %w", ctx.Err())
	}
}

// Messages returns every message received so far.
func (s *MailServer) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.all...)
}

// Close stops the server.
func (s *MailServer) Close() error { return s.srv.Close() }

func (s *MailServer) deliver(m Message) {
	s.mu.Lock()
	s.all = append(s.all, m)
	s.mu.Unlock()
	select {
	case s.msgs <- m:
	default: // nobody is reading: Messages still has it
	}
}

type mailSession struct {
	s    *MailServer
	conn *smtp.Conn
	auth bool
	msg  Message
}

func (m *mailSession) AuthMechanisms() []string {
	if m.s.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (m *mailSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != m.s.opts.Username || pass != m.s.opts.Password {
			return errors.New("invalid credentials")
		}
		m.auth = true
		return nil
	}), nil
}

func (m *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if m.s.opts.Username != "" && !m.auth {
		return smtp.ErrAuthRequired
	}
	m.msg = Message{From: from}
	return nil
}

func (m *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	m.msg.To = append(m.msg.To, to)
	return nil
}

func (m *mailSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg := m.msg
	msg.Raw = raw
	_, msg.TLS = m.conn.TLSConnectionState()
	msg.Auth = m.auth
	if err := parseMessage(&msg); err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unreadable message: " + err.Error()}
	}
	m.s.deliver(msg)
	return nil
}

func (m *mailSession) Reset()        { m.msg = Message{} }
func (m *mailSession) Logout() error { return nil }

// parseMessage fills Subject, Text and HTML from Raw: a single part or a
// multipart/alternative (or mixed) message, quoted-printable or base64.
func parseMessage(msg *Message) error {
	pm, err := mail.ReadMessage(bytes.NewReader(msg.Raw))
	if err != nil {
		return err
	}
	dec := new(mime.WordDecoder)
	if msg.Subject, err = dec.DecodeHeader(pm.Header.Get("Subject")); err != nil {
		return err
	}
	return readPart(msg, pm.Header.Get("Content-Type"), pm.Header.Get("Content-Transfer-Encoding"), pm.Body)
}

func readPart(msg *Message, ctype, enc string, body io.Reader) error {
	mt, params, err := mime.ParseMediaType(cmp.Or(ctype, "text/plain"))
	if err != nil {
		return err
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := readPart(msg, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(enc) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = newBase64Reader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	switch mt {
	case "text/plain":
		msg.Text = string(b)
	case "text/html":
		msg.HTML = string(b)
	}
	return nil
}

func newBase64Reader(r io.Reader) io.Reader {
	return base64.NewDecoder(base64.StdEncoding, &stripNewlines{r: r})
}

// stripNewlines drops CR and LF, which base64 bodies have every 76 bytes.
type stripNewlines struct{ r io.Reader }

func (s *stripNewlines) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[j] = c
			j++
		}
	}
	return j, err
}

func urlUser(user, pass string) string { return url.UserPassword(user, pass).String() }
