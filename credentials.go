package gatehouse

// The credentials providers: the application's own (its Authorize) and
// the ready-made password accounts. The sign-in itself, with what each
// step defends against, is internal/credentialsflow's; the password
// accounts' other routes are internal/passwordflow's, and
// providers/passwordaccount does their work without HTTP. Here: each
// provider checked and its flow built at New, the route
// {base}/{id}/{action}, and the Host methods only these flows need.

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// addCredentials checks a credentials provider and returns its flow.
func (h *Handler) addCredentials(c credentials.Config) (flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = h.limiter(c.PerIP, id+"-per-ip", credentials.DefaultPerIP, credentials.DefaultWindow)
	c.PerIdentifier = h.limiter(c.PerIdentifier, id+"-per-identifier", credentials.DefaultPerIdentifier, credentials.DefaultWindow)
	c.PerIdentifierAndIP = h.limiter(c.PerIdentifierAndIP, id+"-per-identifier-and-ip", credentials.DefaultPerIdentifierAndIP, credentials.DefaultWindow)
	if c.ClientIP == nil {
		c.ClientIP = h.cfg.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	return credentialsflow.New(&c, h.fin, h.cfg.Logger), nil
}

// addPassword checks a password-accounts provider and returns its flow.
func (h *Handler) addPassword(c passwordaccount.Config) (flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = h.limiter(c.PerIP, id+"-per-ip", credentials.DefaultPerIP, credentials.DefaultWindow)
	c.PerIdentifier = h.limiter(c.PerIdentifier, id+"-per-identifier", credentials.DefaultPerIdentifier, credentials.DefaultWindow)
	c.PerIdentifierAndIP = h.limiter(c.PerIdentifierAndIP, id+"-per-identifier-and-ip", credentials.DefaultPerIdentifierAndIP, credentials.DefaultWindow)
	c.SendPerIP = h.limiter(c.SendPerIP, id+"-sends-per-ip", email.DefaultSendsPerIP, email.DefaultSendWindow)
	c.SendPerIdentifier = h.limiter(c.SendPerIdentifier, id+"-sends-per-identifier", email.DefaultSendsPerIdentifier, email.DefaultSendWindow)
	if c.ClientIP == nil {
		c.ClientIP = h.cfg.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	store, ok := h.cfg.Adapter.(passwordaccount.Store)
	if !ok || !adapter.Supports[adapter.PasswordStore](h.cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a password-accounts provider needs an Adapter that keeps password hashes (adapter.PasswordStore)"}
	}
	if h.cfg.URL == "" { // as for e-mail links (email.go)
		return nil, &ConfigError{Provider: c.ID, Field: "URL", Reason: "a password-accounts provider needs Config.URL (AUTH_URL): links must not take their host from the request"}
	}
	svc, err := passwordaccount.NewService(c, store, passwordaccount.Options{Secrets: h.cfg.Secret, Logger: h.cfg.Logger, CreateUser: h.cfg.Events.CreateUser})
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	f, err := passwordflow.New(svc, passwordflow.Config{Logger: h.cfg.Logger, Theme: h.cfg.Theme,
		Events: passwordflow.Events{PasswordReset: h.cfg.Events.PasswordReset, PasswordChange: h.cfg.Events.PasswordChange, RevokeSessions: h.cfg.Events.RevokeSessions}}, h.fin)
	if err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	return f, nil
}

// passwordRoute answers {base}/{id}/{action}, for a password-accounts
// provider id.
func (h *Handler) passwordRoute(w http.ResponseWriter, r *http.Request) {
	f, ok := h.flows[r.PathValue("provider")].(*passwordflow.Flow)
	if !ok {
		h.notFound(w, r) // no password-accounts provider of that id
		return
	}
	f.Route(w, r)
}

// A password is a way to sign in besides linked accounts.
var _ plugin.Way = (*passwordflow.Flow)(nil)
