package email_test

import (
	"context"
	"fmt"

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
			subject, text, html := email.Message(req) // the default wording, if wanted
			_, _, _ = subject, text, html
			return nil // hand req.URL to the transport; never log it
		},
	}
	fmt.Println(p.ProviderBase().Name)
	// Output: Email
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
