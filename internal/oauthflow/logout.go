package oauthflow

// OpenID Connect RP-Initiated Logout 1.0: after the local sign-out the
// browser is sent on to the provider's end_session_endpoint, and comes
// back to {base}/signout/callback/{provider} with the state sealed for it.

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
)

// EndSessionURL returns where to send the browser after a local sign-out
// (RP-Initiated Logout 1.0 §2): the provider's end_session_endpoint, with
// id_token_hint when the ID token is known, client_id, a
// post_logout_redirect_uri of {base}/signout/callback/{id} and a state
// sealed in a cookie, with callbackURL kept for the way back. It returns
// "" when the provider has no end_session_endpoint (or it cannot be
// read).
func (f *Flow) EndSessionURL(w http.ResponseWriter, r *http.Request, idToken, callbackURL string) string {
	e, err := f.p.Endpoints(r.Context())
	if err != nil || e.EndSession == "" {
		return ""
	}
	u, err := url.Parse(e.EndSession)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	id, names := f.p.Config().ID, f.host.Cookies(r)
	state := checks.NewState()
	sealed, err := f.cfg.Sealer.Seal(names.LogoutState, id, state)
	if err != nil {
		return ""
	}
	names.Set(w, names.LogoutState, sealed, time.Now().Add(checks.MaxAge))
	if callbackURL != "" {
		names.Set(w, names.CallbackURL, callbackURL, time.Time{})
	}
	q := u.Query()
	if idToken != "" {
		q.Set("id_token_hint", idToken)
	}
	q.Set("client_id", f.p.Config().ClientID)
	q.Set("post_logout_redirect_uri", f.host.Origin(r)+f.cfg.BasePath+"/signout/callback/"+id)
	q.Set("state", state)
	u.RawQuery = q.Encode()
	return u.String()
}

// SignOutReturn answers GET {base}/signout/callback/{provider}, where the
// provider sends the browser back after an RP-initiated logout: the state
// must be the one sealed for this browser and provider (any provider id
// is taken: an unknown one has no state sealed for it), then the browser
// goes on to the (same-origin) callback URL.
func SignOutReturn(w http.ResponseWriter, r *http.Request, sealer *checks.Sealer, host Host) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	prov := r.PathValue("provider")
	names := host.Cookies(r)
	want, err := sealer.Open(checks.State, names.LogoutState, prov, cookies.Value(r, names.LogoutState))
	if err == nil {
		err = checks.VerifyState(r.URL.Query().Get("state"), want)
	}
	names.Clear(w, names.LogoutState)
	if err != nil {
		host.Fail(w, r, checkError(prov, err))
		return
	}
	httpx.Redirect(w, r, host.CallbackURL(r, cookies.Value(r, names.CallbackURL)))
}
