package gatehouse

// Passkeys (the WebAuthn provider types), top to bottom:
//
//  1. GET {base}/webauthn-options/{provider}?action=register|authenticate
//     answers the options for navigator.credentials.create or .get, and
//     seals the ceremony (challenge, relying party, user) into a
//     short-lived cookie bound to the provider and the action.
//  2. POST {base}/callback/{provider} with action, data (the credential's
//     JSON) and csrfToken: the cookie is opened and cleared, the response
//     verified by go-webauthn against the challenge, the origin, the RP id
//     hash, the user presence and verification flags and the signature;
//     the challenge is refused a second time; the sign counter must
//     advance. Then the user is signed in as after any provider
//     (finishSignIn), with a fresh session.
//
// Registration is for the signed-in user; a new user can register only
// when the provider sets SignUp (see passkey.WebAuthnConfig.SignUp).

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/webauthnrp"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// challengeCheck names the challenge cookie's check in errors.
const challengeCheck checks.Kind = "webauthn"

// passkeyRuntime is one configured WebAuthn provider.
type passkeyRuntime struct {
	cfg   passkey.WebAuthnConfig
	store adapter.AuthenticatorAdapter
}

// passkeyConfig returns p as a WebAuthn configuration, when it is one.
func passkeyConfig(p providers.Provider) (passkey.WebAuthnConfig, bool) {
	switch c := p.(type) {
	case passkey.WebAuthnConfig:
		return c, true
	case *passkey.WebAuthnConfig:
		if c != nil {
			return *c, true
		}
	}
	return passkey.WebAuthnConfig{}, false
}

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
	return &passkeyRuntime{cfg: c, store: store}, nil
}

// checkPasskeys runs once every provider is known: SignUp (unverified
// addresses) is never combined with a provider that links by e-mail
// address (pre-account hijacking).
func (h *Handler) checkPasskeys() error {
	for _, id := range h.order {
		p, ok := h.flows[id].(*passkeyRuntime)
		if !ok || !p.cfg.SignUp {
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
			if e, ok := h.flows[oid].(*emailRuntime); ok {
				return &ConfigError{Provider: id, Field: "SignUp", Reason: fmt.Sprintf(
					"passkey sign-up stores unverified e-mail addresses, and the e-mail provider %q signs in whoever owns an address to the user that has it: a stranger could sign up with a victim's address first and keep access to the victim's account", e.cfg.ID)}
			}
		}
	}
	return nil
}

// passkeyProvider returns the WebAuthn provider with the id, if any.
func (h *Handler) passkeyProvider(id string) (*passkeyRuntime, bool) {
	p, ok := h.flows[id].(*passkeyRuntime)
	return p, ok
}

// webauthnOptions answers GET {base}/webauthn-options/{provider}:
// {"action": ..., "options": ...} and the challenge cookie.
func (h *Handler) webauthnOptions(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	ctx := r.Context()
	id := r.PathValue("provider")
	p, ok := h.passkeyProvider(id)
	if !ok {
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "Invalid request", "reason": "no WebAuthn provider " + id})
		return
	}
	bad := func(msg, reason string) {
		httpx.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": msg, "reason": reason})
	}
	// A server-side failure is logged; the client learns only its type.
	serverError := func(t ErrorType, err error) {
		h.cfg.Logger.Error("gatehouse: "+string(t), "provider", id, "step", "webauthn-options", "err", err)
		httpx.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": string(t)})
	}
	if h.rateLimited(w, r, b, id) {
		return
	}
	action := r.URL.Query().Get("action")
	if action == "" {
		action = webauthnrp.ActionAuthenticate
	}
	if action != webauthnrp.ActionAuthenticate && action != webauthnrp.ActionRegister {
		bad("Invalid action", `action must be "authenticate" or "register"`)
		return
	}
	wa, _, err := webauthnrp.New(p.cfg, b.origin)
	if err != nil {
		serverError(Configuration, err)
		return
	}

	st := webauthnrp.ChallengeState{Action: action, Binding: h.binding(r, b)[:bindingLen]}
	var options any
	if action == webauthnrp.ActionAuthenticate {
		// Discoverable credentials: the browser offers the passkeys it has
		// for this RP id, so no user name is asked for and none is
		// revealed (no allowCredentials list).
		a, sess, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.UserVerificationRequirement(p.cfg.UserVerification)))
		if err != nil {
			serverError(Configuration, err)
			return
		}
		st.Session, options = *sess, a.Response
	} else {
		user, reason, err := h.registrant(ctx, r, b, p)
		if err != nil {
			serverError(AdapterError, err)
			return
		}
		if reason != "" {
			bad("Invalid request", reason)
			return
		}
		c, sess, err := wa.BeginRegistration(user, webauthn.WithExclusions(webauthn.Credentials(user.Creds).CredentialDescriptors()),
			webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirement(p.cfg.ResidentKey)))
		if err != nil {
			serverError(Configuration, err)
			return
		}
		st.Session, options, st.UserID, st.NewUser = *sess, c.Response, user.ID, user.NewUser
	}

	raw, err := json.Marshal(st)
	if err == nil {
		var sealed string
		if sealed, err = h.sealer.Seal(b.cookies.Challenge, id, string(raw)); err == nil {
			b.cookies.Set(w, b.cookies.Challenge, sealed, time.Now().Add(p.cfg.Timeout))
		}
	}
	if err != nil {
		serverError(Configuration, err)
		return
	}
	// Where to land afterwards, as for the other providers' sign-in.
	if cb := r.URL.Query().Get("callbackUrl"); cb != "" {
		b.cookies.Set(w, b.cookies.CallbackURL, h.callbackURL(b, cb, r), time.Time{}) // same-origin, never ""
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"action": action, "options": options})
}

// registrant returns who a registration is for: the signed-in user, or a
// new user when the provider allows sign-up. A non-empty reason says why
// there is nobody.
func (h *Handler) registrant(ctx context.Context, r *http.Request, b *base, p *passkeyRuntime) (*webauthnrp.User, string, error) {
	current, err := h.currentUserID(ctx, r, b)
	if err != nil {
		return nil, "", err
	}
	if current != "" {
		u, err := h.cfg.Adapter.GetUser(ctx, current)
		if err != nil {
			return nil, "", err
		}
		if len(u.ID) > 64 {
			// The user handle is the user id; WebAuthn §5.4.3 caps it at 64 bytes.
			return nil, "", fmt.Errorf("user id %q is longer than the 64 bytes a WebAuthn user handle may have", u.ID)
		}
		list, err := p.store.ListAuthenticatorsByUserID(ctx, u.ID)
		if err != nil {
			return nil, "", err
		}
		wu := &webauthnrp.User{ID: u.ID, Name: cmp.Or(u.Email, u.Name, u.ID), Display: cmp.Or(u.Name, u.Email, u.ID)}
		for _, a := range list {
			wu.Creds = append(wu.Creds, webauthnrp.CredentialOf(a))
		}
		return wu, "", nil
	}
	if !p.cfg.SignUp {
		return nil, "registering a passkey needs a signed-in user", nil
	}
	nu, err := p.cfg.GetUserInfo(ctx, r)
	if err != nil || nu.Email == "" {
		return nil, "sign-up needs an e-mail address", nil
	}
	// The user handle is the id the new user will get: random, not the
	// address (WebAuthn §14.6.1: no personal data in the handle).
	nu.ID = randomHex(16)
	return &webauthnrp.User{ID: nu.ID, Name: nu.Email, Display: cmp.Or(nu.Name, nu.Email), NewUser: &nu}, "", nil
}

func (p *passkeyRuntime) info() providers.Base { return p.cfg.ProviderBase() }

// crossSiteCallback: the page's own script posts the callback.
func (*passkeyRuntime) crossSiteCallback() bool { return false }

// addTo puts the provider's part on the built-in sign-in page.
func (p *passkeyRuntime) addTo(page *pages.SignIn, _ providers.AppProvider, b *base) {
	page.WebAuthn = append(page.WebAuthn, pages.WebAuthnForm{ID: p.cfg.ID, Name: p.cfg.Name, OptionsURL: b.path + "/webauthn-options/" + p.cfg.ID,
		CallbackURL: b.path + "/callback/" + p.cfg.ID, Conditional: !p.cfg.DisableConditionalUI, SignUp: p.cfg.SignUp})
}

// form is run by {base}/webauthn.js, which the page must load: it only
// names the routes and carries the CSRF token.
func (p *passkeyRuntime) form(path, csrf, callback string) template.HTML {
	return renderForm(passkeyFormTmpl, formData{Action: path + "/callback/" + p.cfg.ID, Options: path + "/webauthn-options/" + p.cfg.ID,
		Name: p.cfg.Name, CSRF: csrf, Callback: callback})
}

// signIn: passkeys start on the sign-in page's script.
func (*passkeyRuntime) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, _ url.Values) {
	httpx.Redirect(w, r, b.url("signin"))
}

// webauthnScript answers GET {base}/webauthn.js: the passkey script of the
// sign-in page, for the application's own pages (pages.WebAuthnScript).
func (h *Handler) webauthnScript(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.WriteString(w, pages.WebAuthnScript())
}

// callback answers POST {base}/callback/{provider}.
func (p *passkeyRuntime) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	id := p.cfg.ID
	fail := func(t ErrorType, code string, err error) {
		h.fail(w, r, b, autherr.New(t, code, id, "webauthn", err))
	}
	if r.Method != http.MethodPost {
		fail(Configuration, "method", errors.New("a WebAuthn callback must be a POST"))
		return
	}
	// The challenge cookie is single use: cleared whatever happens next.
	sealed := sessioncookie.Value(r, b.cookies.Challenge)
	if sealed != "" {
		b.cookies.Clear(w, b.cookies.Challenge)
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !h.csrfOK(r, b, form.Get("csrfToken")) {
		fail(MissingCSRF, "csrf", errors.New("CSRF token missing or wrong"))
		return
	}
	if err := h.completePasskey(w, r, b, p, form, sealed); err != nil {
		h.fail(w, r, b, autherr.Wrap(err, WebAuthnVerificationError, "verification_failed", id, "webauthn"))
	}
}

func (h *Handler) completePasskey(w http.ResponseWriter, r *http.Request, b *base, p *passkeyRuntime, form url.Values, sealed string) error {
	id := p.cfg.ID
	fail := func(code string, err error) error {
		return autherr.New(WebAuthnVerificationError, code, id, "webauthn", err)
	}
	action := form.Get("action")
	if action != webauthnrp.ActionAuthenticate && action != webauthnrp.ActionRegister {
		return fail("invalid_action", fmt.Errorf("action %q is neither authenticate nor register", action))
	}

	// 1. The ceremony, from the sealed cookie: made for this provider
	// (checks.Sealer binds it) and this action.
	raw, err := h.sealer.Open(challengeCheck, b.cookies.Challenge, id, sealed)
	if err != nil {
		code := "challenge_cookie"
		var ce *checks.Error
		if errors.As(err, &ce) {
			code = ce.Code() // e.g. webauthn_wrong_provider
		}
		return fail(code, err)
	}
	var st webauthnrp.ChallengeState
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		return fail("challenge_cookie", err)
	}
	if st.Action != action {
		return fail("wrong_action", fmt.Errorf("the challenge was made for %q, the response is for %q", st.Action, action))
	}
	// The session that asked for the options (link.go).
	if err := h.checkBinding(r, b, id, st.Binding); err != nil {
		return err
	}

	// 2. The same relying party as when the options were made.
	wa, rpID, err := webauthnrp.New(p.cfg, b.origin)
	if err != nil {
		return autherr.New(Configuration, "relying_party", id, "webauthn", err)
	}
	if st.Session.RelyingPartyID != rpID {
		return fail("rp_id_mismatch", fmt.Errorf("the ceremony began for RP id %q, this request is for %q", st.Session.RelyingPartyID, rpID))
	}

	// Where to land: the form's callbackUrl (checked in finishSignIn),
	// else the cookie the options request set.
	data, callback := []byte(form.Get("data")), form.Get("callbackUrl")
	if action == webauthnrp.ActionAuthenticate {
		return h.passkeyAuthenticate(w, r, b, p, wa, st, data, callback)
	}
	return h.passkeyRegister(w, r, b, p, wa, st, data, callback)
}

// passkeyAuthenticate verifies an assertion (WebAuthn §7.2) and signs its
// user in.
func (h *Handler) passkeyAuthenticate(w http.ResponseWriter, r *http.Request, b *base, p *passkeyRuntime, wa *webauthn.WebAuthn, st webauthnrp.ChallengeState, data []byte, callback string) error {
	ctx := r.Context()
	id := p.cfg.ID
	fail := func(code string, err error) error {
		return autherr.New(WebAuthnVerificationError, code, id, "authenticate", err)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(data)
	if err != nil {
		return fail("malformed_response", webauthnrp.ProtocolError(err))
	}
	var stored adapter.Authenticator
	var lookupErr error
	// Steps 5-6: the credential is looked up by its id; its user handle
	// must be the owner's id (go-webauthn compares them).
	handler := func(rawID, _ []byte) (webauthn.User, error) {
		stored, lookupErr = p.store.GetAuthenticator(ctx, base64.RawURLEncoding.EncodeToString(rawID))
		if lookupErr != nil {
			return nil, lookupErr
		}
		return &webauthnrp.User{ID: stored.UserID, Creds: []webauthn.Credential{webauthnrp.CredentialOf(stored)}}, nil
	}
	_, cred, err := wa.ValidatePasskeyLogin(handler, st.Session, parsed)
	switch {
	case errors.Is(lookupErr, adapter.ErrNotFound):
		return fail("unknown_credential", lookupErr)
	case lookupErr != nil:
		return autherr.New(AdapterError, "adapter", id, "authenticate", lookupErr)
	case err != nil:
		return fail(webauthnrp.VerificationCode(err), webauthnrp.ProtocolError(err))
	}
	// Step 22: a counter that did not advance means the private key may
	// have been copied (WebAuthn §6.1.1): refused.
	if cred.Authenticator.CloneWarning {
		return fail("counter_regression", fmt.Errorf("sign counter %d is not above the stored %d: possibly a cloned authenticator", parsed.Response.AuthenticatorData.Counter, stored.Counter))
	}
	// A challenge is good for one ceremony: a replayed response (the same
	// cookie and body sent again) is refused here even by authenticators
	// that do not count.
	if !h.useChallenge(st.Session.Challenge, st.Session.Expires) {
		return fail("challenge_reused", errors.New("this challenge was already used"))
	}
	// The adapter applies the counter rule again, atomically, so that two
	// concurrent sign-ins with one counter value cannot both succeed.
	if _, err := p.store.UpdateAuthenticatorCounter(ctx, stored.CredentialID, cred.Authenticator.SignCount); err != nil {
		if errors.Is(err, adapter.ErrCounterRegression) {
			return fail("counter_regression", err)
		}
		return autherr.New(AdapterError, "adapter", id, "authenticate", err)
	}
	u, err := h.cfg.Adapter.GetUser(ctx, stored.UserID)
	if err != nil {
		return autherr.New(AdapterError, "adapter", id, "authenticate", err)
	}
	user := accountlink.ToProfile(u)
	acct := &account.Account{UserID: u.ID, Type: account.TypeWebAuthn, Provider: id, ProviderAccountID: stored.ProviderAccountID}
	return h.finishSignIn(w, r, b, signin.Result{User: user, Account: acct, CallbackURL: callback, Unbound: true,
		Persist:      func(context.Context) (profile.User, bool, error) { return user, false, nil },
		UserVerified: parsed.Response.AuthenticatorData.Flags.HasUserVerified()})
}

// passkeyRegister verifies an attestation (WebAuthn §7.1), stores the new
// credential for the signed-in user (or a new user, with SignUp) and signs
// that user in.
func (h *Handler) passkeyRegister(w http.ResponseWriter, r *http.Request, b *base, p *passkeyRuntime, wa *webauthn.WebAuthn, st webauthnrp.ChallengeState, data []byte, callback string) error {
	ctx := r.Context()
	id := p.cfg.ID
	fail := func(code string, err error) error {
		return autherr.New(WebAuthnVerificationError, code, id, "register", err)
	}
	// The session must still be the one the ceremony began in.
	current, err := h.currentUserID(ctx, r, b)
	if err != nil {
		return autherr.New(AdapterError, "adapter", id, "register", err)
	}
	switch {
	case st.NewUser == nil && (current == "" || current != st.UserID):
		return fail("session_changed", errors.New("the registration began for another signed-in user, or the user signed out"))
	case st.NewUser != nil && current != "":
		return fail("session_changed", errors.New("a sign-up ceremony was finished while signed in"))
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(data)
	if err != nil {
		return fail("malformed_response", webauthnrp.ProtocolError(err))
	}
	cred, err := wa.CreateCredential(&webauthnrp.User{ID: st.UserID}, st.Session, parsed)
	if err != nil {
		return fail(webauthnrp.VerificationCode(err), webauthnrp.ProtocolError(err))
	}
	if !h.useChallenge(st.Session.Challenge, st.Session.Expires) {
		return fail("challenge_reused", errors.New("this challenge was already used"))
	}
	credID := base64.RawURLEncoding.EncodeToString(cred.ID)
	auth := adapter.Authenticator{
		CredentialID:         credID,
		UserID:               st.UserID,
		ProviderAccountID:    credID,
		CredentialPublicKey:  cred.PublicKey,
		Counter:              cred.Authenticator.SignCount,
		CredentialDeviceType: adapter.SingleDevice,
		CredentialBackedUp:   cred.Flags.BackupState,
		Transports:           webauthnrp.JoinTransports(cred.Transport),
	}
	if cred.Flags.BackupEligible {
		auth.CredentialDeviceType = adapter.MultiDevice
	}
	acct := &account.Account{UserID: st.UserID, Type: account.TypeWebAuthn, Provider: id, ProviderAccountID: credID}
	res := signin.Result{Account: acct, CallbackURL: callback, Persist: func(ctx context.Context) (profile.User, bool, error) {
		return h.storePasskey(ctx, p, st, auth, *acct)
	}}
	if st.NewUser != nil {
		res.User = *st.NewUser
	} else {
		u, err := h.cfg.Adapter.GetUser(ctx, st.UserID)
		if err != nil {
			return autherr.New(AdapterError, "adapter", id, "register", err)
		}
		res.User = accountlink.ToProfile(u)
	}
	return h.finishSignIn(w, r, b, res)
}

// storePasskey stores a newly registered credential, creating its user
// first for a sign-up. It runs after the SignIn callback allowed it.
func (h *Handler) storePasskey(ctx context.Context, p *passkeyRuntime, st webauthnrp.ChallengeState, auth adapter.Authenticator, acct account.Account) (profile.User, bool, error) {
	id := p.cfg.ID
	adapterFail := func(err error) (profile.User, bool, error) {
		return profile.User{}, false, autherr.New(AdapterError, "adapter", id, "register", err)
	}
	a := h.cfg.Adapter
	var u adapter.User
	isNew := st.NewUser != nil
	if isNew {
		// A stored address is never taken over: whoever owns it signs
		// in and adds a passkey from their account.
		if _, err := a.GetUserByEmail(ctx, st.NewUser.Email); err == nil {
			return profile.User{}, false, autherr.New(AccountNotLinked, "email_in_use", id, "register", errors.New("a user with this e-mail address exists; sign in and add the passkey from the account"))
		} else if !errors.Is(err, adapter.ErrNotFound) {
			return adapterFail(err)
		}
		created, err := a.CreateUser(ctx, adapter.User{ID: st.UserID, Name: st.NewUser.Name, Email: st.NewUser.Email})
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, autherr.New(AccountNotLinked, "email_in_use", id, "register", err)
		} else if err != nil {
			return adapterFail(err)
		}
		u = created
	} else {
		got, err := a.GetUser(ctx, st.UserID)
		if err != nil {
			return adapterFail(err)
		}
		u = got
	}
	if _, err := p.store.CreateAuthenticator(ctx, auth); err != nil {
		if isNew {
			// No user without the passkey it was made for.
			if derr := a.DeleteUser(ctx, u.ID); derr != nil {
				h.cfg.Logger.Error("gatehouse: removing a half-created passkey user failed", "provider", id, "err", derr)
			}
		}
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, autherr.New(WebAuthnVerificationError, "credential_exists", id, "register", err)
		}
		return adapterFail(err)
	}
	pu := accountlink.ToProfile(u)
	if isNew {
		if ev := h.cfg.Events.CreateUser; ev != nil {
			ev(ctx, pu)
		}
	}
	if ev := h.cfg.Events.LinkAccount; ev != nil {
		ev(ctx, pu, acct)
	}
	return pu, isNew, nil
}

// maxChallenges bounds the challenges of verified ceremonies remembered
// until they expire, so that each is accepted once. The log is per
// process: across instances the challenge cookie (HttpOnly, cleared on
// use) and the sign counter are the defences. When full of unexpired
// challenges it refuses new ceremonies rather than forget one (fail
// closed, bounded.Map.Add).
const maxChallenges = 100000

// useChallenge records a verified ceremony's challenge until it expires
// and reports whether it was new.
func (h *Handler) useChallenge(challenge string, expires time.Time) bool {
	now := time.Now()
	if expires.IsZero() {
		expires = now.Add(passkey.DefaultTimeout)
	}
	return h.challenges.Add(challenge, struct{}{}, expires, now)
}
