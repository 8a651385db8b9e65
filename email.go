package gatehouse

// The e-mail (magic link) provider: its sign-in, from the form to the
// session, is internal/emailflow's (which draws it, with what each step
// defends against); here, the provider checked and its flow built at New.

import (
	"context"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// addEmail checks an e-mail provider and returns its flow.
func (h *Handler) addEmail(c email.Config) (flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = h.limiter(c.PerIP, id+"-sends-per-ip", email.DefaultSendsPerIP, email.DefaultSendWindow)
	c.PerIdentifier = h.limiter(c.PerIdentifier, id+"-sends-per-identifier", email.DefaultSendsPerIdentifier, email.DefaultSendWindow)
	if c.ClientIP == nil {
		c.ClientIP = h.cfg.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	// An HTTP API sender without a key takes AUTH_<ID>_KEY, as Auth.js.
	if c.NeedsAPIKey() {
		v := "AUTH_" + providers.EnvName(c.ID) + "_KEY"
		if c.APIKey = h.getenv(v); c.APIKey == "" {
			return nil, &ConfigError{Provider: c.ID, Field: "apiKey", Reason: "is required: set it, or " + v}
		}
	}
	if h.cfg.Adapter == nil {
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "an e-mail provider needs an Adapter to keep its verification tokens"}
	}
	// A link built from the request's Host would let anyone who can send
	// a Host (or X-Forwarded-Host) header have a victim's link point at
	// their own server, and collect the token when it is followed.
	if h.cfg.URL == "" {
		return nil, &ConfigError{Provider: c.ID, Field: "URL", Reason: "an e-mail provider needs Config.URL (AUTH_URL): sign-in links must not take their host from the request"}
	}
	secrets := h.cfg.Secret
	if c.Secret != "" {
		secrets = []string{c.Secret}
	}
	tokens, err := email.NewTokens(secrets, "gatehouse verification token", "Gatehouse e-mail verification token hash")
	if err != nil {
		return nil, &ConfigError{Provider: c.ID, Field: "Secret", Err: err}
	}
	allow := func(ctx context.Context, user profile.User, acct *account.Account, r *http.Request) (bool, error) {
		cb := h.cfg.Callbacks.SignIn
		if cb == nil {
			return true, nil
		}
		allow, _, err := cb(ctx, SignInParams{User: user, Account: acct, Request: r, VerificationRequest: true})
		return allow, err
	}
	return emailflow.New(emailflow.Config{Email: c, Tokens: tokens, Adapter: h.cfg.Adapter, Logger: h.cfg.Logger,
		Allow: allow, BasePath: h.cfg.BasePath, VerifyRequestPage: h.cfg.Pages.VerifyRequest}, h.fin), nil
}
