package orgflow

import (
	"cmp"
	"context"
	"net/url"

	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// mailer returns a sender of invitations through the SMTP server of the
// first e-mail provider of ps that sends through one, nil when none does
// (a provider with its own SendVerificationRequest, an HTTP API among
// them, words its messages for sign-in only).
func mailer(ps []providers.Provider) func(ctx context.Context, m organization.Message) error {
	for _, p := range ps {
		// The e-mail provider (providers/email) says whether it can: an
		// interface, so that a program without e-mail links no mail code.
		s, ok := providers.Resolve(p).(interface {
			MailSender() (func(ctx context.Context, to, subject, text, html string) error, bool)
		})
		if !ok {
			continue
		}
		send, ok := s.MailSender()
		if !ok {
			continue
		}
		return func(ctx context.Context, m organization.Message) error {
			subject, text, page, err := invitationText(ctx, m)
			if err != nil {
				return err
			}
			return send(ctx, m.Invitation.Email, subject, text, page)
		}
	}
	return nil
}

// invitationText words an invitation in the language the inviter's
// request chose (withLanguage), from the message catalogue (package mail,
// kind "invitation"). The organization's name and the role are members'
// input: mail escapes them in the HTML part, and a subject has no line
// breaks.
func invitationText(ctx context.Context, m organization.Message) (subject, text, page string, err error) {
	host := ""
	if u, err := url.Parse(m.URL); err == nil {
		host = u.Hostname()
	}
	lang, _ := ctx.Value(languageKey{}).(string)
	msg, err := mail.Render(nil, mail.NewInvitation(cmp.Or(lang, "en"), m.Invitation.Email, host, m.URL,
		m.Organization.Name, m.Invitation.Role, m.Invitation.Expires))
	return msg.Subject, msg.Text, msg.HTML, err
}

// languageKey is the context key of the language tag invitations are
// written in.
type languageKey struct{}

// withLanguage returns ctx carrying the language tag of the invitation
// it sends.
func withLanguage(ctx context.Context, tag string) context.Context {
	return context.WithValue(ctx, languageKey{}, tag)
}
