package gatehouse

// Passkeys (the WebAuthn provider types): the ceremonies are in
// internal/passkeyflow; here, the checks at New and the options route.

import (
	"fmt"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// addPasskey checks a WebAuthn provider and returns its flow. It needs
// an adapter that stores authenticators.
func (h *Handler) addPasskey(c passkey.WebAuthnConfig) (flow, error) {
	if err := c.Validate(); err != nil {
		return nil, providerConfigError(c.ID, err)
	}
	store, err := adapter.AsAuthenticatorAdapter(h.cfg.Adapter)
	if h.cfg.Adapter == nil || err != nil {
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a WebAuthn provider needs an Adapter that implements adapter.AuthenticatorAdapter (memory, sqlite and postgres do)"}
	}
	return passkeyflow.New(passkeyflow.Config{Provider: c, Adapter: h.cfg.Adapter, Store: store,
		Logger: h.cfg.Logger, Challenges: h.challenges, Sealer: h.sealer,
		Events: passkeyflow.Events{CreateUser: h.cfg.Events.CreateUser, LinkAccount: h.cfg.Events.LinkAccount}}, h.fin), nil
}

// checkPasskeys runs once every provider is known: SignUp (unverified
// addresses) is never combined with a provider that links by e-mail
// address (pre-account hijacking).
func (h *Handler) checkPasskeys() error {
	for _, id := range h.order {
		p, ok := h.flows[id].(*passkeyflow.Flow)
		if !ok || !p.Provider().SignUp {
			continue
		}
		for _, oid := range h.order {
			if o, ok := h.oauthProvider(oid); ok && o.Config().AllowDangerousEmailAccountLinking {
				return &ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and provider %q links by e-mail address (AllowDangerousEmailAccountLinking): a stranger could sign up with a victim's address first and keep access to the victim's account", oid)}
			}
			// An e-mail (magic link) provider signs its link's owner in to
			// the user with that address: the squatter's user, passkey
			// included.
			if e, ok := h.flows[oid].(*emailflow.Flow); ok {
				return &ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and the e-mail provider %q signs in whoever owns an address to the user that has it: a stranger could sign up with a victim's address first and keep access to the victim's account", e.Info().ID)}
			}
		}
	}
	return nil
}

// webauthnOptions answers GET {base}/webauthn-options/{provider}.
func (h *Handler) webauthnOptions(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("provider")
	if p, ok := h.flows[id].(*passkeyflow.Flow); ok {
		p.Options(w, r)
		return
	}
	httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "Invalid request", "reason": "no WebAuthn provider " + id})
}
