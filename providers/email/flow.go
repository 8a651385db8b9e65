package email

import (
	"context"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The flow is a way to sign in besides linked accounts.
var (
	_ plugin.Way        = (*emailflow.Flow)(nil)
	_ plugin.BaseRouter = emailFlow{}
	_ plugin.Provider   = Config{}
)

// NewFlow checks c against the handler's configuration and returns its
// sign-in (internal/emailflow). gatehouse.New calls it; applications do
// not. It needs an adapter, to keep the links' tokens, and the handler's
// URL.
func (c Config) NewFlow(e *plugin.Env) (plugin.Flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = e.Limiter(c.PerIP, id+"-sends-per-ip", DefaultSendsPerIP, DefaultSendWindow)
	c.PerIdentifier = e.Limiter(c.PerIdentifier, id+"-sends-per-identifier", DefaultSendsPerIdentifier, DefaultSendWindow)
	if c.ClientIP == nil {
		c.ClientIP = e.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, err
	}
	// An HTTP API sender without a key takes AUTH_<ID>_KEY, as Auth.js.
	if c.NeedsAPIKey() {
		v := "AUTH_" + providers.EnvName(c.ID) + "_KEY"
		if c.APIKey = e.Getenv(v); c.APIKey == "" {
			return nil, &autherr.ConfigError{Provider: c.ID, Field: "apiKey", Reason: "is required: set it, or " + v}
		}
	}
	if e.Adapter == nil {
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "Adapter", Reason: "an e-mail provider needs an Adapter to keep its verification tokens"}
	}
	// A link built from the request's Host would let anyone who can send
	// a Host (or X-Forwarded-Host) header have a victim's link point at
	// their own server, and collect the token when it is followed.
	if e.URL == "" {
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "URL", Reason: "an e-mail provider needs Config.URL (AUTH_URL): sign-in links must not take their host from the request"}
	}
	secrets := e.Secret
	if c.Secret != "" {
		secrets = []string{c.Secret}
	}
	tokens, err := NewTokens(secrets, "gatehouse verification token", "Gatehouse e-mail verification token hash")
	if err != nil {
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "Secret", Err: err}
	}
	p := emailflow.Provider{ID: c.ID, Name: c.Name, MaxAge: c.MaxAge, PerIP: c.PerIP, PerIdentifier: c.PerIdentifier,
		ClientIP: c.ClientIP, Normalize: c.NormalizeIdentifier, NewToken: c.NewToken,
		Send: func(ctx context.Context, r *http.Request, identifier, url, host, lang string, expires time.Time) error {
			return c.Send(ctx, VerificationRequest{Identifier: identifier, URL: url, Expires: expires, Host: host, Provider: c, Request: r, Language: lang})
		}}
	f := emailflow.New(emailflow.Config{Provider: p, Tokens: tokens, Adapter: e.Adapter, Logger: e.Logger,
		Allow: e.AllowLink, BasePath: e.BasePath, VerifyRequestPage: e.VerifyRequestPage}, e.Finisher)
	return emailFlow{f, e.Finisher.VerifyRequestPage}, nil
}

// emailFlow is an e-mail provider's sign-in, with the page it sends the
// browser to once the link is sent: the built-in "check your e-mail"
// page, GET {base}/verify-request.
type emailFlow struct {
	*emailflow.Flow
	verifyRequest http.HandlerFunc
}

// BaseRoutes returns GET {base}/verify-request.
func (f emailFlow) BaseRoutes() []plugin.Route {
	return []plugin.Route{{Method: http.MethodGet, Pattern: "/verify-request", Handler: f.verifyRequest}}
}

// MailSender returns a sender of other messages (organization invitations)
// through c's SMTP server, and false when c sends through a function of
// the application's or an HTTP API, whose wording is for sign-in only. The
// handler calls it; applications do not need to.
func (c Config) MailSender() (func(ctx context.Context, to, subject, text, html string) error, bool) {
	if c.SendVerificationRequest != nil || (c.Server == "" && c.SMTP.Host == "") {
		return nil, false
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, false // New reports it for the provider
	}
	smtp, from := c.SMTP, c.From
	return func(ctx context.Context, to, subject, text, html string) error {
		return smtp.SendMessage(ctx, from, to, subject, text, html)
	}, true
}
