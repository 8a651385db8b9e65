package passkeyflow

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/webauthnrp"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Callback answers POST {base}/callback/{provider}, once the rate limit
// and the origin have been checked.
func (f *Flow) Callback(w http.ResponseWriter, r *http.Request) {
	id := f.cfg.Provider.ID
	if r.Method != http.MethodPost {
		f.host.Fail(w, r, autherr.New(autherr.Configuration, "method", id, "webauthn", errors.New("a WebAuthn callback must be a POST")))
		return
	}
	// The challenge cookie is single use: cleared whatever happens next.
	names := f.host.Cookies(r)
	sealed := cookies.Value(r, names.Challenge)
	if sealed != "" {
		names.Clear(w, names.Challenge)
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !f.host.CSRFOK(r, form.Get("csrfToken")) {
		f.host.Fail(w, r, autherr.New(autherr.MissingCSRF, "csrf", id, "webauthn", errors.New("CSRF token missing or wrong")))
		return
	}
	if err := f.complete(w, r, form, sealed); err != nil {
		f.host.Fail(w, r, autherr.Wrap(err, autherr.WebAuthnVerificationError, "verification_failed", id, "webauthn"))
	}
}

// complete checks the ceremony the sealed cookie carries against the
// request, and finishes it.
func (f *Flow) complete(w http.ResponseWriter, r *http.Request, form url.Values, sealed string) error {
	id := f.cfg.Provider.ID
	fail := func(code string, err error) error {
		return autherr.New(autherr.WebAuthnVerificationError, code, id, "webauthn", err)
	}
	action := form.Get("action")
	if action != webauthnrp.ActionAuthenticate && action != webauthnrp.ActionRegister {
		return fail("invalid_action", fmt.Errorf("action %q is neither authenticate nor register", action))
	}

	// 1. The ceremony, from the sealed cookie: made for this provider
	// (checks.Sealer binds it) and this action.
	raw, err := f.cfg.Sealer.Open(challengeCheck, f.host.Cookies(r).Challenge, id, sealed)
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
	// The session that asked for the options.
	if err := f.host.CheckBinding(r, id, st.Binding); err != nil {
		return err
	}

	// 2. The same relying party as when the options were made.
	wa, rpID, err := webauthnrp.New(f.cfg.Provider, f.host.Origin(r))
	if err != nil {
		return autherr.New(autherr.Configuration, "relying_party", id, "webauthn", err)
	}
	if st.Session.RelyingPartyID != rpID {
		return fail("rp_id_mismatch", fmt.Errorf("the ceremony began for RP id %q, this request is for %q", st.Session.RelyingPartyID, rpID))
	}

	// Where to land: the form's callbackUrl (checked by FinishSignIn),
	// else the cookie the options request set.
	data, callback := []byte(form.Get("data")), form.Get("callbackUrl")
	if action == webauthnrp.ActionAuthenticate {
		return f.authenticate(w, r, wa, st, data, callback)
	}
	return f.register(w, r, wa, st, data, callback)
}

// authenticate verifies an assertion (WebAuthn §7.2) and signs its user
// in.
func (f *Flow) authenticate(w http.ResponseWriter, r *http.Request, wa *webauthn.WebAuthn, st webauthnrp.ChallengeState, data []byte, callback string) error {
	ctx := r.Context()
	id := f.cfg.Provider.ID
	fail := func(code string, err error) error {
		return autherr.New(autherr.WebAuthnVerificationError, code, id, "authenticate", err)
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
		stored, lookupErr = f.cfg.Store.GetAuthenticator(ctx, base64.RawURLEncoding.EncodeToString(rawID))
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
		return autherr.New(autherr.AdapterError, "adapter", id, "authenticate", lookupErr)
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
	if !f.cfg.Challenges.Use(r.Context(), st.Session.Challenge, st.Session.Expires) {
		return fail("challenge_reused", errors.New("this challenge was already used"))
	}
	// The adapter applies the counter rule again, atomically, so that two
	// concurrent sign-ins with one counter value cannot both succeed.
	if _, err := f.cfg.Store.UpdateAuthenticatorCounter(ctx, stored.CredentialID, cred.Authenticator.SignCount); err != nil {
		if errors.Is(err, adapter.ErrCounterRegression) {
			return fail("counter_regression", err)
		}
		return autherr.New(autherr.AdapterError, "adapter", id, "authenticate", err)
	}
	u, err := f.cfg.Adapter.GetUser(ctx, stored.UserID)
	if err != nil {
		return autherr.New(autherr.AdapterError, "adapter", id, "authenticate", err)
	}
	user := accountlink.ToProfile(u)
	acct := &account.Account{UserID: u.ID, Type: account.TypeWebAuthn, Provider: id, ProviderAccountID: stored.ProviderAccountID}
	return f.host.FinishSignIn(w, r, signin.Result{User: user, Account: acct, CallbackURL: callback, Unbound: true,
		Persist:      func(context.Context) (profile.User, bool, error) { return user, false, nil },
		UserVerified: parsed.Response.AuthenticatorData.Flags.HasUserVerified()})
}

// register verifies an attestation (WebAuthn §7.1), stores the new
// credential for the signed-in user (or a new user, with SignUp) and
// signs that user in.
func (f *Flow) register(w http.ResponseWriter, r *http.Request, wa *webauthn.WebAuthn, st webauthnrp.ChallengeState, data []byte, callback string) error {
	ctx := r.Context()
	id := f.cfg.Provider.ID
	fail := func(code string, err error) error {
		return autherr.New(autherr.WebAuthnVerificationError, code, id, "register", err)
	}
	// The session must still be the one the ceremony began in.
	current, err := f.host.CurrentUserID(ctx, r)
	if err != nil {
		return autherr.New(autherr.AdapterError, "adapter", id, "register", err)
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
	if !f.cfg.Challenges.Use(r.Context(), st.Session.Challenge, st.Session.Expires) {
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
		return f.store(ctx, st, auth, *acct)
	}}
	if st.NewUser != nil {
		res.User = *st.NewUser
	} else {
		u, err := f.cfg.Adapter.GetUser(ctx, st.UserID)
		if err != nil {
			return autherr.New(autherr.AdapterError, "adapter", id, "register", err)
		}
		res.User = accountlink.ToProfile(u)
	}
	return f.host.FinishSignIn(w, r, res)
}

// store stores a newly registered credential, creating its user first
// for a sign-up. It runs after the SignIn callback allowed it.
func (f *Flow) store(ctx context.Context, st webauthnrp.ChallengeState, auth adapter.Authenticator, acct account.Account) (profile.User, bool, error) {
	id := f.cfg.Provider.ID
	adapterFail := func(err error) (profile.User, bool, error) {
		return profile.User{}, false, autherr.New(autherr.AdapterError, "adapter", id, "register", err)
	}
	a := f.cfg.Adapter
	var u adapter.User
	isNew := st.NewUser != nil
	if isNew {
		// A stored address is never taken over: whoever owns it signs
		// in and adds a passkey from their account.
		if _, err := a.GetUserByEmail(ctx, st.NewUser.Email); err == nil {
			return profile.User{}, false, autherr.New(autherr.AccountNotLinked, "email_in_use", id, "register", errors.New("a user with this e-mail address exists; sign in and add the passkey from the account"))
		} else if !errors.Is(err, adapter.ErrNotFound) {
			return adapterFail(err)
		}
		created, err := a.CreateUser(ctx, adapter.User{ID: st.UserID, Name: st.NewUser.Name, Email: st.NewUser.Email})
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, autherr.New(autherr.AccountNotLinked, "email_in_use", id, "register", err)
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
	if _, err := f.cfg.Store.CreateAuthenticator(ctx, auth); err != nil {
		if isNew {
			// No user without the passkey it was made for.
			if derr := a.DeleteUser(ctx, u.ID); derr != nil {
				f.cfg.Logger.Error("gatehouse: removing a half-created passkey user failed", "provider", id, "err", derr)
			}
		}
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, autherr.New(autherr.WebAuthnVerificationError, "credential_exists", id, "register", err)
		}
		return adapterFail(err)
	}
	pu := accountlink.ToProfile(u)
	if isNew {
		if ev := f.cfg.Events.CreateUser; ev != nil {
			ev(ctx, pu)
		}
	}
	if ev := f.cfg.Events.LinkAccount; ev != nil {
		ev(ctx, pu, acct)
	}
	return pu, isNew, nil
}
