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
)

// emailProvider is the e-mail (magic link) provider: through the SMTP
// server of AUTH_EMAIL_SERVER, or, in development without one, into an
// outbox that /dev/mail shows. Outside development without a server there
// is none.
func emailProvider(getenv func(string) string, dev bool, mux *http.ServeMux) providers.Provider {
	if server := getenv("AUTH_EMAIL_SERVER"); server != "" {
		return email.Config{Server: server, From: cmp.Or(getenv("AUTH_EMAIL_FROM"), "Gatehouse example <no-reply@localhost.localdomain>")}
	}
	if !dev {
		return nil
	}
	box := &outbox{}
	mux.Handle("GET /dev/mail", box)
	slog.Info("AUTH_EMAIL_SERVER is not set: sign-in links go to the development outbox", "path", "/dev/mail")
	return email.Config{SendVerificationRequest: box.send}
}

// outbox keeps the sign-in links sent in development, newest first.
type outbox struct {
	mu   sync.Mutex
	mail []sentLink
}

type sentLink struct {
	To, URL string
	At      time.Time
}

func (o *outbox) send(_ context.Context, req email.VerificationRequest) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.mail = append([]sentLink{{To: req.Identifier, URL: req.URL, At: time.Now()}}, o.mail...)
	if len(o.mail) > 50 {
		o.mail = o.mail[:50]
	}
	return nil
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

var outboxPage = template.Must(template.New("outbox").Parse(layout + `
<h1>Development outbox</h1>
<p>The sign-in links the site has sent, newest first. Only in development: with <code>AUTH_EMAIL_SERVER</code> set they go out by SMTP.</p>
{{range .}}<p>To <strong>{{.To}}</strong> at {{.At.Format "15:04:05"}}: <a href="{{.URL}}">sign in</a></p>
{{else}}<p>Nothing sent yet.</p>{{end}}
<p><a href="/">Home</a></p></body></html>`))

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
