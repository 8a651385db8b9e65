package gatehouse

// Passkeys (the WebAuthn provider types): the ceremonies are in
// internal/passkeyflow, built by providers/passkey (internal/plugin); here,
// the rule at New that spans providers, and the two routes.

import (
	"fmt"
	"io"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// checkPasskeys runs once every provider is known: SignUp (unverified
// addresses) is never combined with a provider that links by e-mail
// address (pre-account hijacking).
func (h *Handler) checkPasskeys() error {
	for _, id := range h.order {
		p, ok := h.flows[id].(plugin.WebAuthn)
		if !ok || !p.SignUp() {
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
			if h.flows[oid].Info().Type == providers.TypeEmail {
				return &ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and the e-mail provider %q signs in whoever owns an address to the user that has it: a stranger could sign up with a victim's address first and keep access to the victim's account", oid)}
			}
		}
	}
	return nil
}

// webauthnOptions answers GET {base}/webauthn-options/{provider}.
func (h *Handler) webauthnOptions(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("provider")
	if p, ok := h.flows[id].(plugin.WebAuthn); ok {
		p.Options(w, r)
		return
	}
	httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "Invalid request", "reason": "no WebAuthn provider " + id})
}

// webauthnScript answers GET {base}/webauthn.js: the passkey script of
// the sign-in page, for the application's own pages
// (pages.WebAuthnScript).
func webauthnScript(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.WriteString(w, pages.WebAuthnScript())
}
