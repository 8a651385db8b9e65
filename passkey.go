package gatehouse

// Passkeys (the WebAuthn provider types): the ceremonies are in
// internal/passkeyflow, built by providers/passkey (internal/plugin); here,
// the rule at New that spans providers, and the two routes.

import (
	"io"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/pages"
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
