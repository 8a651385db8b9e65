package gatehouse

// The credentials providers: the application's own (its Authorize) and
// the ready-made password accounts. The sign-in itself, with what each
// step defends against, is internal/credentialsflow's, built by
// providers/credentials; the password accounts' flow and other routes
// are providers/passwordaccount's (internal/plugin). Here: the route
// {base}/{id}/{action}.

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/plugin"
)

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
