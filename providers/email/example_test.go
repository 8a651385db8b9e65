package email_test

import (
	"context"
	"fmt"
	"text/template"
	"time"

	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// Links sent through an SMTP server with TLS from the first byte.
func ExampleConfig() {
	p, err := email.Config{
		Server: "smtps://mailer:secret@smtp.example.com",
		From:   "Example <no-reply@example.com>",
	}.Prepare()
	fmt.Println(p.ID, p.SMTP.Host, p.SMTP.Port, p.SMTP.TLS, p.MaxAge, err)
	// Output: email smtp.example.com 465 implicit 24h0m0s <nil>
}

// Links sent another way: a queue, an API, a test's outbox.
func ExampleConfig_sendVerificationRequest() {
	p := email.Config{
		SendVerificationRequest: func(ctx context.Context, req email.VerificationRequest) error {
			m, err := email.Message(req) // the default wording, if wanted
			if err != nil {
				return err
			}
			_ = m // hand m (it holds req.URL) to the transport; never log it
			return nil
		},
	}
	fmt.Println(p.ProviderBase().Name)
	// Output: Email
}

// The wording of the message replaced, the sender kept: here the
// subject alone; Text and HTML are text/template and html/template
// templates executed with the same mail.Data.
func ExampleConfig_template() {
	p := email.Config{
		Template: &mail.Template{
			Subject: template.Must(template.New("").Parse(`{{.T "mail.signin.button"}} · {{.Host}}`)),
		},
	}
	for _, lang := range []string{"en", "de"} {
		m, _ := email.Message(email.VerificationRequest{Identifier: "alice@example.com", Host: "app.example.com",
			URL: "https://app.example.com/auth/callback/email?token=…", Expires: time.Now().Add(time.Hour), Provider: p, Language: lang})
		fmt.Println(m.Subject)
	}
	// Output:
	// Sign in · app.example.com
	// Anmelden · app.example.com
}

func ExampleNormalize() {
	for _, in := range []string{" Alice@Example.COM ", "alice@example.com,mallory@evil.example"} {
		out, err := email.Normalize(in)
		fmt.Printf("%q %v\n", out, err)
	}
	// Output:
	// "alice@example.com" <nil>
	// "" invalid e-mail address: the address contains ','
}
