package email_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// Normalize is internal/address's, and its errors are ErrInvalidAddress.
func TestNormalize(t *testing.T) {
	if got, err := email.Normalize("  Alice@Example.COM\t"); err != nil || got != "alice@example.com" {
		t.Errorf("Normalize = %q, %v", got, err)
	}
	if _, err := email.Normalize("alice@example.com,mallory@evil.com"); !errors.Is(err, email.ErrInvalidAddress) {
		t.Errorf("a list: %v, want ErrInvalidAddress", err)
	}
}

func TestParseServer(t *testing.T) {
	s, err := email.ParseServer("smtp://us%40er:p%3Ass@mail.example.com")
	if err != nil || s.Host != "mail.example.com" || s.Username != "us@er" || s.Password != "p:ss" || s.TLS != email.TLSStartTLS {
		t.Fatalf("%+v %v", s, err)
	}
	s, err = email.ParseServer("smtps://mail.example.com:2465")
	if err != nil || s.TLS != email.TLSImplicit || s.Port != 2465 {
		t.Fatalf("%+v %v", s, err)
	}
	for _, bad := range []string{"http://mail.example.com", "smtps://h?tls=none", "smtp://h?foo=1", "smtp://h/path", "smtp://h:port"} {
		if _, err := email.ParseServer(bad); err == nil {
			t.Errorf("ParseServer(%q) accepted", bad)
		}
	}
	if _, err := email.ParseServer("smtp://user:secret-password@h/%zz"); err == nil || strings.Contains(err.Error(), "secret-password") {
		t.Errorf("error repeats the password: %v", err)
	}
}

func TestPrepare(t *testing.T) {
	for name, tc := range map[string]struct {
		c     email.Config
		field string
	}{
		"no sender":        {email.Config{From: "a@example.com"}, "server"},
		"no from":          {email.Config{Server: "smtps://mail.example.com"}, "from"},
		"two froms":        {email.Config{Server: "smtps://mail.example.com", From: "a@example.com, b@example.com"}, "from"},
		"plain to remote":  {email.Config{Server: "smtp://mail.example.com?tls=none", From: "a@example.com"}, "server"},
		"bad id":           {email.Config{ID: "E Mail", SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }}, "id"},
		"negative max age": {email.Config{MaxAge: -time.Second, SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }}, "maxAge"},
	} {
		_, err := tc.c.Prepare()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v, want an error about %s", name, err, tc.field)
		}
	}
	c, err := email.Config{Server: "smtp://localhost:2525?tls=none", From: "a@example.com"}.Prepare()
	if err != nil || c.ID != "email" || c.Name != "Email" || c.MaxAge != 24*time.Hour || c.SMTP.Port != 2525 {
		t.Fatalf("%+v %v", c, err)
	}
}

// testTLS returns a server certificate for 127.0.0.1 and a client
// configuration that trusts it, made for the test.
func testTLS(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test mail server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}

func send(t *testing.T, c email.Config) error {
	t.Helper()
	c, err := c.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	return c.Send(context.Background(), email.VerificationRequest{
		Identifier: "alice@example.com", URL: "https://app.example.com/auth/callback/email?token=abc&email=alice%40example.com",
		Expires: time.Now().Add(time.Hour), Host: "app.example.com", Provider: c,
	})
}

func receive(t *testing.T, ms *authtest.MailServer) authtest.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSMTP sends through a real SMTP server on loopback: STARTTLS with
// AUTH, implicit TLS with AUTH, and plain to loopback.
func TestSMTP(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	for _, tc := range []struct {
		name string
		opts authtest.MailOptions
		tls  bool
	}{
		{"starttls and auth", authtest.MailOptions{TLSConfig: serverTLS, Username: "mailer", Password: "p@ss word"}, true},
		{"implicit tls and auth", authtest.MailOptions{TLSConfig: serverTLS, Implicit: true, Username: "mailer", Password: "s3cret"}, true},
		{"plain to loopback", authtest.MailOptions{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := authtest.NewMailServer(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer ms.Close()
			c := email.Config{Server: ms.URL(), From: "Example <no-reply@example.com>"}
			c.SMTP.TLSConfig = clientTLS
			if err := send(t, c); err != nil {
				t.Fatal(err)
			}
			m := receive(t, ms)
			if m.TLS != tc.tls || m.Auth != (tc.opts.Username != "") {
				t.Fatalf("TLS %v, auth %v", m.TLS, m.Auth)
			}
			if m.Subject != "Sign in to app.example.com" || m.Link() != "https://app.example.com/auth/callback/email?token=abc&email=alice%40example.com" {
				t.Fatalf("subject %q, link %q, text:\n%s", m.Subject, m.Link(), m.Text)
			}
			if !strings.Contains(m.HTML, `href="https://app.example.com/auth/callback/email?token=abc&amp;email=alice%40example.com"`) ||
				!strings.Contains(m.HTML, "app.&#8203;example.&#8203;com") {
				t.Fatalf("html:\n%s", m.HTML)
			}
		})
	}
}

func TestSMTPRefusesWithoutTLS(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	// The server offers no STARTTLS: the default mode must not send.
	plain, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	c := email.Config{SMTP: email.SMTP{Host: "127.0.0.1", Port: port(plain.Addr()), TLSConfig: clientTLS}, From: "a@example.com"}
	if err := send(t, c); err == nil {
		t.Fatal("sent without STARTTLS")
	}
	// A certificate the client does not trust: no send either.
	ms, err := authtest.NewMailServer(authtest.MailOptions{TLSConfig: serverTLS})
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	if err := send(t, email.Config{SMTP: email.SMTP{Host: "127.0.0.1", Port: port(ms.Addr())}, From: "a@example.com"}); err == nil {
		t.Fatal("sent to an untrusted server")
	}
	// Wrong password: refused.
	authed, err := authtest.NewMailServer(authtest.MailOptions{TLSConfig: serverTLS, Username: "u", Password: "right"})
	if err != nil {
		t.Fatal(err)
	}
	defer authed.Close()
	c = email.Config{SMTP: email.SMTP{Host: "127.0.0.1", Port: port(authed.Addr()), Username: "u", Password: "wrong", TLSConfig: clientTLS}, From: "a@example.com"}
	if err := send(t, c); err == nil {
		t.Fatal("sent with a wrong password")
	}
	if n := len(plain.Messages()) + len(ms.Messages()) + len(authed.Messages()); n != 0 {
		t.Fatalf("%d messages arrived", n)
	}
}

func port(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	n := 0
	for _, c := range p {
		n = n*10 + int(c-'0')
	}
	return n
}
