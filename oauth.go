package gatehouse

// OAuth 2.0 and OpenID Connect providers: the sign-in, from the button to
// the session, is internal/oauthflow's (which draws it step by step); the
// talking to the provider is internal/rp's. Here, each provider checked,
// its environment defaults filled, and its flow built at New.

import (
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// addOAuth checks an OAuth or OpenID Connect provider and returns its
// flow.
func (h *Handler) addOAuth(op providers.OAuthProvider) (flow, error) {
	o := op.OAuth()
	h.envDefaults(o)
	if err := o.Validate(); err != nil {
		return nil, providerConfigError(o.ID, err)
	}
	p := rp.New(o, h.cfg.HTTPClient, h.cfg.ClockSkew, h.cfg.ProviderTimeout)
	return oauthflow.New(p, oauthflow.Config{Sealer: h.sealer, RedirectProxyURL: h.cfg.RedirectProxyURL, BasePath: h.cfg.BasePath}, h.fin), nil
}

// envDefaults fills what a provider leaves empty from the environment, as
// Auth.js does for every configured provider: the client id from
// AUTH_<ID>_ID, the secret from AUTH_<ID>_SECRET, the issuer from
// AUTH_<ID>_ISSUER (ID upper-cased, '-' as '_'). Values set in the
// configuration are never replaced. A clientId still missing afterwards is
// a ConfigError naming the variable (providers.OAuth.Validate).
func (h *Handler) envDefaults(o *providers.OAuth) {
	prefix := "AUTH_" + providers.EnvName(o.ID)
	if o.ClientID == "" {
		o.ClientID = h.getenv(prefix + "_ID")
	}
	if o.ClientSecret == "" {
		o.ClientSecret = h.getenv(prefix + "_SECRET")
	}
	if o.Issuer == "" {
		o.Issuer = h.getenv(prefix + "_ISSUER")
	}
}
