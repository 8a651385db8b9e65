package gatehouse

// Signing out: the local sign-out, OpenID Connect RP-Initiated Logout 1.0
// (the browser is sent on to the provider's end_session_endpoint after
// the local sign-out) and Back-Channel Logout 1.0 (internal/backchannel).

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/backchannel"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
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
// when Config.ProviderSignOut is on (RP-Initiated Logout 1.0 §2): the
// end_session_endpoint of the provider the user signed in with, with
// id_token_hint when the ID token is known, client_id, a
// post_logout_redirect_uri of {base}/signout/callback and a state sealed
// in a cookie. It returns "" when there is nothing to do. It must run
// before the session is deleted.
func (h *Handler) endSessionURL(w http.ResponseWriter, r *http.Request, b *base, callbackURL string) string {
	if !h.cfg.ProviderSignOut {
		return ""
	}
	prov, idToken := h.sessions.Provider(r, b, h.order)
	p, ok := h.oauthProvider(prov)
	if !ok {
		return ""
	}
	e, err := p.Endpoints(r.Context())
	if err != nil || e.EndSession == "" {
		return ""
	}
	u, err := url.Parse(e.EndSession)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	state := checks.NewState()
	sealed, err := h.sealer.Seal(b.Cookies.LogoutState, prov, state)
	if err != nil {
		return ""
	}
	b.Cookies.Set(w, b.Cookies.LogoutState, sealed, time.Now().Add(checks.MaxAge))
	if callbackURL != "" {
		b.Cookies.Set(w, b.Cookies.CallbackURL, callbackURL, time.Time{})
	}
	q := u.Query()
	if idToken != "" {
		q.Set("id_token_hint", idToken)
	}
	q.Set("client_id", p.Config().ClientID)
	q.Set("post_logout_redirect_uri", b.URL("signout", "callback", prov))
	q.Set("state", state)
	u.RawQuery = q.Encode()
	return u.String()
}

// signOutReturn answers GET {base}/signout/callback/{provider}, where the
// provider sends the browser back after an RP-initiated logout: the state
// must be the one sealed for this browser and provider, then the browser
// goes on to the (same-origin) callback URL.
func (h *Handler) signOutReturn(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	w.Header().Set("Referrer-Policy", "no-referrer")
	prov := r.PathValue("provider")
	name := b.Cookies.LogoutState
	want, err := h.sealer.Open(checks.State, name, prov, sessioncookie.Value(r, name))
	if err == nil {
		err = checks.VerifyState(r.URL.Query().Get("state"), want)
	}
	b.Cookies.Clear(w, name)
	if err != nil {
		h.site.Fail(w, r, oauthflow.CheckError(prov, err).(*Error))
		return
	}
	target := h.site.CallbackURL(r, sessioncookie.Value(r, b.Cookies.CallbackURL))
	httpx.Redirect(w, r, target)
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
