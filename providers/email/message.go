package email

import "github.com/gatehouse-auth/gatehouse/mail"

// Message returns the message for req: the provider's Template, with the
// built-in wording (package mail) for the parts it lacks, in the
// language req.Language names. Senders of your own can use it.
func Message(req VerificationRequest) (mail.Message, error) {
	d := mail.NewData(mail.KindSignIn, req.Language, req.Identifier, hostOnly(req.Host), req.URL, req.Expires)
	return mail.Render(req.Provider.Template, d)
}
