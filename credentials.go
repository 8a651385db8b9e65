package gatehouse

// The credentials providers: the application's own (its Authorize) and
// the ready-made password accounts. The sign-in itself, with what each
// step defends against, is internal/credentialsflow's; the password
// accounts' flow and other routes are providers/passwordaccount's
// (internal/plugin). Here: the application's provider checked and its
// flow built at New, and the route {base}/{id}/{action}.

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
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

// passwordRoute answers {base}/{id}/{action}, for a password-accounts
// provider id.
func (h *Handler) passwordRoute(w http.ResponseWriter, r *http.Request) {
	f, ok := h.flows[r.PathValue("provider")].(plugin.Router)
	if !ok {
		h.notFound(w, r) // no password-accounts provider of that id
		return
	}
	f.Route(w, r)
}
