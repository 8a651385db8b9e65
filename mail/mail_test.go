package mail_test

import (
	"context"
	htmltemplate "html/template"
	"strings"
	"testing"
	texttemplate "text/template"
	"time"

	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

const link = "https://app.example.com/auth/x?token=abc"

// sender sends one message of each kind through the SMTP senders of the
// e-mail and password-account providers, in the language tag lang.
type sender struct {
	signIn email.Config
	pw     passwordaccount.Config
}

func newSender(t *testing.T, ms *authtest.MailServer, tmpl *mail.Template) sender {
	t.Helper()
	from := "Example <no-reply@example.com>"
	signIn, err := email.Config{Server: ms.URL(), From: from, Template: tmpl}.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	pw, err := passwordaccount.Config{Server: ms.URL(), From: from, Templates: map[passwordaccount.Kind]*mail.Template{
		passwordaccount.KindVerify: tmpl, passwordaccount.KindReset: tmpl, passwordaccount.KindExists: tmpl}}.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	return sender{signIn, pw}
}

func (s sender) send(t *testing.T, ms *authtest.MailServer, k mail.Kind, lang string) authtest.Message {
	t.Helper()
	ctx := context.Background()
	expires := time.Date(2030, 5, 6, 7, 8, 0, 0, time.UTC)
	var err error
	if k == mail.KindSignIn {
		err = s.signIn.Send(ctx, email.VerificationRequest{Identifier: "alice@example.com", URL: link, Expires: expires,
			Host: "app.example.com:8443", Provider: s.signIn, Language: lang})
	} else {
		err = s.pw.Send(ctx, passwordaccount.Message{Kind: k, To: "alice@example.com", URL: link, Expires: expires,
			Host: "app.example.com:8443", Language: lang, Template: s.pw.Templates[k]})
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	m, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var kinds = []mail.Kind{mail.KindSignIn, mail.KindVerify, mail.KindReset, mail.KindExists}

// englishParts are the English catalogue's e-mail messages, cut at their
// arguments: the pieces of English a German message must not contain.
func englishParts(k mail.Kind) []string {
	var out []string
	for _, key := range []string{"subject", "intro", "button", "ignore"} {
		out = append(out, strings.Split(pages.Text("en", "mail."+string(k)+"."+key), "%s")...)
	}
	out = append(out, strings.Split(pages.Text("en", "mail.until"), "%s")...)
	var long []string
	for _, p := range out {
		if p = strings.TrimSpace(strings.Trim(p, ".")); len(p) > 3 {
			long = append(long, p)
		}
	}
	return long
}

// TestEveryMailInGerman sends each message in English and German through
// a real SMTP server and reads what arrives: the German one is worded
// from the German catalogue, with no English left in it.
func TestEveryMailInGerman(t *testing.T) {
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	s := newSender(t, ms, nil)
	for _, k := range kinds {
		en, de := s.send(t, ms, k, "en"), s.send(t, ms, k, "de")
		if want := pages.Text("en", "mail."+string(k)+".subject", "app.example.com"); en.Subject != want {
			t.Errorf("%s: English subject %q, want %q", k, en.Subject, want)
		}
		if want := pages.Text("de", "mail."+string(k)+".subject", "app.example.com"); de.Subject != want {
			t.Errorf("%s: German subject %q, want %q", k, de.Subject, want)
		}
		for _, m := range []authtest.Message{en, de} {
			if m.Link() != link || !strings.Contains(m.HTML, `href="https://app.example.com/auth/x?token=abc"`) ||
				!strings.Contains(m.Text, "2030-05-06 07:08 UTC") {
				t.Errorf("%s: link %q, text:\n%s\nhtml:\n%s", k, m.Link(), m.Text, m.HTML)
			}
		}
		for _, part := range []string{"button", "ignore"} {
			if w := pages.Text("de", "mail."+string(k)+"."+part); !strings.Contains(de.Text, w) || !strings.Contains(de.HTML, w) {
				t.Errorf("%s: the German message lacks %q:\n%s\n%s", k, w, de.Text, de.HTML)
			}
		}
		for _, english := range englishParts(k) {
			for _, body := range []string{de.Subject, de.Text, de.HTML} {
				if strings.Contains(body, english) {
					t.Errorf("%s: English %q in the German message:\n%s", k, english, body)
				}
			}
			if !strings.Contains(en.Text, english) && !strings.Contains(en.Subject, english) {
				t.Errorf("%s: the English message lacks %q:\n%s", k, english, en.Text)
			}
		}
		if !strings.Contains(de.HTML, `<html lang="de">`) {
			t.Errorf("%s: German HTML without lang=de:\n%s", k, de.HTML)
		}
	}
}

// TestTemplate replaces the wording of every message through the
// providers' own SMTP senders: the application's subject and HTML, the
// built-in text, in the message's language.
func TestTemplate(t *testing.T) {
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	tmpl := &mail.Template{
		Subject: texttemplate.Must(texttemplate.New("").Parse("[{{.Kind}}] {{.Subject}}\r\nBcc: mallory@example.com")),
		HTML:    htmltemplate.Must(htmltemplate.New("").Parse(`<p>{{.T "mail.signin.button"}} <a href="{{.URL}}">{{.Button}}</a> {{.To}}</p>`)),
	}
	s := newSender(t, ms, tmpl)
	for _, k := range kinds {
		m := s.send(t, ms, k, "de")
		// The subject's line break is a space: it cannot add a header.
		if want := "[" + string(k) + "] " + pages.Text("de", "mail."+string(k)+".subject", "app.example.com") + " Bcc: mallory@example.com"; m.Subject != want {
			t.Errorf("%s: subject %q, want %q", k, m.Subject, want)
		}
		if len(m.To) != 1 || strings.Contains(string(m.Raw), "\nBcc:") {
			t.Errorf("%s: a header was added: to %v\n%s", k, m.To, m.Raw)
		}
		if want := `<p>Anmelden <a href="https://app.example.com/auth/x?token=abc">` + htmltemplate.HTMLEscapeString(pages.Text("de", "mail."+string(k)+".button")) + `</a> alice@example.com</p>`; m.HTML != want {
			t.Errorf("%s: html %q, want %q", k, m.HTML, want)
		}
		if !strings.Contains(m.Text, pages.Text("de", "mail."+string(k)+".ignore")) || m.Link() != link {
			t.Errorf("%s: the built-in text was not kept:\n%s", k, m.Text)
		}
	}
}

// TestRenderError: a template that fails to execute fails the message,
// which is not sent half-written.
func TestRenderError(t *testing.T) {
	bad := &mail.Template{Text: texttemplate.Must(texttemplate.New("").Parse(`{{.NoSuchField}}`))}
	if _, err := mail.Render(bad, mail.NewData(mail.KindReset, "en", "a@example.com", "example.com", link, time.Time{})); err == nil || !strings.Contains(err.Error(), "reset text") {
		t.Fatalf("err = %v", err)
	}
}

// TestInvitation: an invitation names the organization and the role in
// the message's language, with no English left in the German one, and
// the organization's name (a member's input) escaped in the HTML.
func TestInvitation(t *testing.T) {
	exp := time.Date(2030, 5, 6, 7, 8, 0, 0, time.UTC)
	render := func(lang string) mail.Message {
		m, err := mail.Render(nil, mail.NewInvitation(lang, "eve@example.com", "app.example.com", link, "<b>Acme</b>", "admin", exp))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	en, de := render("en"), render("de")
	if en.Subject != "You are invited to join <b>Acme</b>" || !strings.Contains(en.Text, "You are invited to join <b>Acme</b> as admin.") {
		t.Errorf("English: %q\n%s", en.Subject, en.Text)
	}
	if de.Subject != "Sie sind eingeladen, <b>Acme</b> beizutreten" || !strings.Contains(de.Text, "Einladung annehmen: "+link) {
		t.Errorf("German: %q\n%s", de.Subject, de.Text)
	}
	for _, english := range englishParts(mail.KindInvitation) {
		if strings.Contains(de.Text, english) || strings.Contains(de.HTML, english) {
			t.Errorf("English %q in the German invitation", english)
		}
	}
	for _, m := range []mail.Message{en, de} {
		if strings.Contains(m.HTML, "<b>Acme</b>") || !strings.Contains(m.HTML, "&lt;b&gt;Acme&lt;/b&gt;") {
			t.Errorf("the name is not escaped in the HTML:\n%s", m.HTML)
		}
	}
}
