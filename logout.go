package gatehouse

// Signing out: the local sign-out, OpenID Connect RP-Initiated Logout 1.0
// (the browser is sent on to the provider's end_session_endpoint after
// the local sign-out) and Back-Channel Logout 1.0 (internal/backchannel).

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/backchannel"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
)

// backchannelLogout answers POST {base}/backchannel-logout/{provider}
// (internal/backchannel): sessions end only when they are in a database.
func (h *Handler) backchannelLogout(w http.ResponseWriter, r *http.Request) {
	rc := backchannel.Receiver{Provider: h.oauthProvider, Logger: h.cfg.Logger}
	if h.cfg.Session.Strategy == StrategyDatabase {
		rc.Adapter = h.cfg.Adapter
	}
	rc.ServeHTTP(w, r)
}

// endSessionURL returns where to send the browser after a local sign-out
// when Config.ProviderSignOut is on: the end_session_endpoint of the
// provider the user signed in with (internal/oauthflow), or "" when there
// is nothing to do. It must run before the session is deleted.
func (h *Handler) endSessionURL(w http.ResponseWriter, r *http.Request, b *base, callbackURL string) string {
	if !h.cfg.ProviderSignOut {
		return ""
	}
	prov, idToken := h.sessions.Provider(r, b, h.order)
	f, ok := h.flows[prov].(*oauthflow.Flow)
	if !ok {
		return ""
	}
	return f.EndSessionURL(w, r, idToken, callbackURL)
}

// signOutReturn answers GET {base}/signout/callback/{provider}
// (oauthflow.SignOutReturn).
func (h *Handler) signOutReturn(w http.ResponseWriter, r *http.Request) {
	oauthflow.SignOutReturn(w, r, h.sealer, h.fin)
}

// signOut answers POST {base}/signout: CSRF checked, the session ended
// (the database row deleted), the cookies cleared, the browser sent on.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	form, ferr := h.site.CheckPost(r, "signout")
	if ferr != nil {
		h.site.Fail(w, r, ferr)
		return
	}
	sess, _ := h.readSession(httpx.Discard{}, r, b) // a store failure: the cookies are cleared all the same
	callbackURL := h.site.CallbackURL(r, form.Get("callbackUrl"))
	endSession := h.endSessionURL(w, r, b, callbackURL)
	h.sessions.End(w, r, b) // the database row deleted, the cookies cleared
	if ev := h.cfg.Events.SignOut; ev != nil && sess != nil {
		ev(r.Context(), sess)
	}
	if endSession != "" {
		httpx.Redirect(w, r, endSession)
		return
	}
	httpx.Redirect(w, r, callbackURL)
}
