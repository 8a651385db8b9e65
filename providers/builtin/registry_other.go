package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// otherEntries are the e-mail and credentials providers.
var otherEntries = []Entry{
	{providers.Email, func(o Options) providers.Provider { return email.Config{Server: o.Server, From: o.From} }},
	{providers.Nodemailer, func(o Options) providers.Provider {
		return email.Nodemailer(email.Config{Server: o.Server, From: o.From})
	}},
	{providers.Resend, func(o Options) providers.Provider { return email.Resend(email.Config{From: o.From}, api(o)) }},
	{providers.SendGrid, func(o Options) providers.Provider { return email.SendGrid(email.Config{From: o.From}, api(o)) }},
	{providers.Postmark, func(o Options) providers.Provider { return email.Postmark(email.Config{From: o.From}, api(o)) }},
	{providers.Mailgun, func(o Options) providers.Provider {
		return email.Mailgun(email.Config{From: o.From}, api(o), o.Domain)
	}},
	{providers.ForwardEmail, func(o Options) providers.Provider {
		return email.ForwardEmail(email.Config{From: o.From}, api(o))
	}},
	{providers.Loops, func(o Options) providers.Provider {
		return email.Loops(email.Config{From: o.From}, api(o), o.TransactionalID)
	}},
	{providers.Credentials, func(Options) providers.Provider { return credentials.Config{} }},
}

func api(o Options) email.API { return email.API{Key: o.APIKey, URL: o.Server} }
