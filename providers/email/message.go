package email

import (
	"html/template"
	"strings"
)

// Message returns the default message for req: the subject "Sign in to
// <host>", a plain-text body and an HTML body with one button. Senders of
// your own can use it.
func Message(req VerificationRequest) (subject, text, html string) {
	host := hostOnly(req.Host)
	subject = "Sign in to " + host
	text = "Sign in to " + host + "\n\n" + req.URL + "\n\n" +
		"The link works once, until " + req.Expires.UTC().Format("2 January 2006 15:04 MST") + ".\n" +
		"If you did not ask to sign in, ignore this message.\n"
	var b strings.Builder
	_ = messageTmpl.Execute(&b, struct {
		Host    template.HTML
		URL     string
		Expires string
	}{
		// A zero-width space after each dot keeps mail clients from
		// turning the host into a link of their own (as Auth.js does).
		Host:    template.HTML(strings.ReplaceAll(template.HTMLEscapeString(host), ".", ".&#8203;")),
		URL:     req.URL,
		Expires: req.Expires.UTC().Format("2 January 2006 15:04 MST"),
	})
	return subject, text, b.String()
}

var messageTmpl = template.Must(template.New("message").Parse(`<!doctype html>
<html><body style="background:#f5f5f7;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;color:#1c1f24">
<table role="presentation" width="100%" style="max-width:480px;margin:auto;background:#fff;border-radius:8px;padding:24px">
<tr><td style="font-size:20px;text-align:center;padding-bottom:16px">Sign in to <strong>{{.Host}}</strong></td></tr>
<tr><td style="text-align:center;padding-bottom:16px"><a href="{{.URL}}" style="display:inline-block;padding:10px 20px;border-radius:6px;background:#2f5bd3;color:#fff;text-decoration:none;font-weight:bold">Sign in</a></td></tr>
<tr><td style="font-size:14px;text-align:center;color:#555">The link works once, until {{.Expires}}.<br>If you did not ask to sign in, ignore this message.</td></tr>
</table></body></html>
`))
