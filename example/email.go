package main

import (
	"cmp"
	"context"
	"crypto/subtle"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// mailer is where the example's messages go: the SMTP server of
// AUTH_EMAIL_SERVER, or, in development without one, an outbox that
// /dev/mail shows. Both the e-mail provider and the password accounts use
// it.
type mailer struct {
	server, from string
	box          *outbox
}

// newMailer returns the example's mail destination, or nil outside
// development without a server (then neither provider is offered).
func newMailer(getenv func(string) string, dev bool, mux *http.ServeMux) *mailer {
	from := cmp.Or(getenv("AUTH_EMAIL_FROM"), "Gatehouse example <no-reply@localhost.localdomain>")
	if server := getenv("AUTH_EMAIL_SERVER"); server != "" {
		return &mailer{server: server, from: from}
	}
	if !dev || getenv("DEV_OUTBOX") == "0" {
		return nil
	}
	box := &outbox{}
	mux.Handle("GET /dev/mail", box)
	slog.Info("AUTH_EMAIL_SERVER is not set: e-mail links go to the development outbox", "path", "/dev/mail")
	return &mailer{box: box}
}

// emailProvider is the e-mail (magic link) provider.
func (m *mailer) emailProvider() providers.Provider {
	if m.box == nil {
		return email.Config{Server: m.server, From: m.from}
	}
	return email.Config{SendVerificationRequest: func(_ context.Context, req email.VerificationRequest) error {
		m.box.add(req.Identifier, "Sign in", req.URL)
		return nil
	}}
}

// passwordProvider is the password accounts: sign-up with a confirmation
// link, sign-in, "forgot your password?" and change, with the NIST
// SP 800-63B length rules and no breach check (the example runs offline;
// see password.RangeAPI for one).
func (m *mailer) passwordProvider() providers.Provider {
	if m.box == nil {
		return passwordaccount.Config{Server: m.server, From: m.from}
	}
	what := map[passwordaccount.Kind]string{passwordaccount.KindVerify: "Confirm address", passwordaccount.KindReset: "Reset password", passwordaccount.KindExists: "Account exists"}
	return passwordaccount.Config{Send: func(_ context.Context, msg passwordaccount.Message) error {
		m.box.add(msg.To, what[msg.Kind], msg.URL)
		return nil
	}}
}

// outbox keeps the links sent in development, newest first.
type outbox struct {
	mu   sync.Mutex
	mail []sentLink
}

type sentLink struct {
	To, What, URL string
	At            time.Time
}

func (o *outbox) add(to, what, link string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.mail = append([]sentLink{{To: to, What: what, URL: link, At: time.Now()}}, o.mail...)
	if len(o.mail) > 50 {
		o.mail = o.mail[:50]
	}
}

func (o *outbox) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	o.mu.Lock()
	mail := append([]sentLink(nil), o.mail...)
	o.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	_ = outboxPage.Execute(w, mail)
}

var outboxPage = template.Must(template.New("outbox").Funcs(template.FuncMap{"pageStyle": pageStyle}).Parse(layout + `
<h1>Development outbox</h1>
<p>The links the site has sent, newest first. Only in development: with <code>AUTH_EMAIL_SERVER</code> set they go out by SMTP.</p>
{{range .}}<p>To <strong>{{.To}}</strong> at {{.At.Format "15:04:05"}}: <a href="{{.URL}}">{{.What}}</a></p>
{{else}}<p>Nothing sent yet.</p>{{end}}
<p><a href="/">Home</a></p>` + layoutEnd))

// demoUser is the credentials provider's one user, in development only:
// username "demo", password "demo".
const demoUser, demoPassword = "demo", "demo"

// credentialsProvider is a username and password form checked against a
// bcrypt hash, with the same work for unknown usernames so that timing
// does not tell which exist.
func credentialsProvider() providers.Provider {
	hash, err := bcrypt.GenerateFromPassword([]byte(demoPassword), bcrypt.DefaultCost)
	if err != nil {
		panic(err)
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("not a password anyone has"), bcrypt.DefaultCost)
	return credentials.Config{
		Name: "Password",
		Fields: []credentials.Field{
			{Name: "username", Label: "Username", Placeholder: "demo", Autocomplete: "username", Required: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
		},
		Authorize: func(_ context.Context, c map[string]string, _ *http.Request) (*profile.User, error) {
			known := subtle.ConstantTimeCompare([]byte(strings.ToLower(strings.TrimSpace(c["username"]))), []byte(demoUser)) == 1
			h := dummy
			if known {
				h = hash
			}
			if bcrypt.CompareHashAndPassword(h, []byte(c["password"])) != nil || !known {
				return nil, credentials.ErrInvalid
			}
			return &profile.User{ID: "demo", Name: "Demo User", Email: "demo@example.com"}, nil
		},
	}
}
