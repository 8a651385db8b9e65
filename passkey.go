package gatehouse

// Passkeys (the WebAuthn provider types): the ceremonies are in
// internal/passkeyflow, built by providers/passkey (internal/plugin), with
// their routes (plugin.BaseRouter); here, the rule at New that spans
// providers.

import (
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
)

// checkPasskeys runs once every provider is known: passkey sign-up is
// never combined with a provider that links by e-mail address
// (plugin.CheckSignUp).
func (h *Handler) checkPasskeys() error {
	flows := make([]flow, 0, len(h.order))
	for _, id := range h.order {
		flows = append(flows, h.flows[id])
	}
	return plugin.CheckSignUp(flows, func(f flow) bool {
		o, ok := f.(*oauthflow.Flow)
		return ok && o.Provider().Config().AllowDangerousEmailAccountLinking
	})
}
