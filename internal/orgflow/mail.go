package orgflow

import (
	"context"
	"html"
	"strings"

	"github.com/gatehouse-auth/gatehouse/organization"
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
			subject, text, page := invitationText(m)
			return send(ctx, m.Invitation.Email, subject, text, page)
		}
	}
	return nil
}

// invitationText words an invitation. The organization's name is a
// member's input: it is escaped in the HTML part (and has no line breaks:
// organization names have no control characters).
func invitationText(m organization.Message) (subject, text, page string) {
	name := m.Organization.Name
	subject = "You are invited to join " + name
	text = strings.Join([]string{
		"You are invited to join " + name + " as " + m.Invitation.Role + ".",
		"", "Accept the invitation: " + m.URL,
		"", "The link works until " + m.Invitation.Expires.UTC().Format("2006-01-02 15:04 UTC") + ". If you did not expect it, ignore this message.",
	}, "\n")
	page = "<p>You are invited to join <strong>" + html.EscapeString(name) + "</strong> as " + html.EscapeString(m.Invitation.Role) + ".</p>" +
		`<p><a href="` + html.EscapeString(m.URL) + `">Accept the invitation</a></p>` +
		"<p>The link works until " + m.Invitation.Expires.UTC().Format("2006-01-02 15:04 UTC") + ". If you did not expect it, ignore this message.</p>"
	return subject, text, page
}
