// Package passkeyflow is the passkey (WebAuthn) sign-in of the provider
// types of package passkey, top to bottom:
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
//     (Host.FinishSignIn), with a fresh session.
//
// Registration is for the signed-in user; a new user can register only
// when the provider sets SignUp (passkey.WebAuthnConfig.SignUp).
//
// The cookies, the session and the end of every sign-in live in package
// gatehouse, which serves these routes through a Host; the go-webauthn
// glue is internal/webauthnrp.
package passkeyflow

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/internal/webauthnrp"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Host is the handler, as the passkey flow sees it. Its methods take the
// request, from which it knows its base URL and names.
type Host interface {
	// Origin returns the site's origin; URL the absolute URL of the
	// route parts under the base path.
	Origin(r *http.Request) string
	URL(r *http.Request, parts ...string) string
	// Cookies returns the cookie names of the request's site.
	Cookies(r *http.Request) cookies.Names
	// RateLimited answers 429 and reports true when the rate limit
	// refuses this request.
	RateLimited(w http.ResponseWriter, r *http.Request, provider string) bool
	// CSRFOK reports whether submitted is this browser's CSRF token.
	CSRFOK(r *http.Request, submitted string) bool
	// CurrentUserID returns the signed-in user's id, "" for none.
	CurrentUserID(ctx context.Context, r *http.Request) (string, error)
	// CallbackURL returns raw when it is a safe place to land, else the
	// site's default.
	CallbackURL(r *http.Request, raw string) string
	// Binding is the binding of r's browser and session
	// (checks.Binding), recorded when a ceremony begins; CheckBinding
	// compares it with the request that finishes the ceremony.
	Binding(r *http.Request) string
	CheckBinding(r *http.Request, provider, recorded string) error
	// Fail reports e to the browser (the error or sign-in page).
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	// FinishSignIn ends a sign-in as every provider's does.
	FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error
}

// Config is what the flow needs besides the Host.
type Config struct {
	// Provider is the provider's configuration, already validated.
	Provider webauthnrp.Provider
	// Adapter stores the users; Store, the same adapter, their passkeys.
	Adapter adapter.Adapter
	Store   adapter.AuthenticatorAdapter
	Logger  *slog.Logger
	// Challenges is the log of used challenges, shared by every passkey
	// provider of a handler.
	Challenges *Challenges
	// Sealer seals the ceremony into its cookie, bound to the cookie's
	// name and the provider.
	Sealer *checks.Sealer
	Events Events
}

// Events are told what the flow stored; nil fields are skipped.
type Events struct {
	CreateUser  func(ctx context.Context, user profile.User)
	LinkAccount func(ctx context.Context, user profile.User, acct account.Account)
}

// Flow is one configured WebAuthn provider's sign-in.
type Flow struct {
	cfg  Config
	host Host
}

// New returns the flow of cfg, served through host.
func New(cfg Config, host Host) *Flow {
	AddMessages()
	return &Flow{cfg: cfg, host: host}
}

// challengeCheck names the challenge cookie's check in errors.
const challengeCheck checks.Kind = "webauthn"

// Options answers GET {base}/webauthn-options/{provider}:
// {"action": ..., "options": ...} and the challenge cookie.
func (f *Flow) Options(w http.ResponseWriter, r *http.Request) {
	p := f.cfg.Provider
	id := p.ID
	bad := func(msg, reason string) {
		httpx.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": msg, "reason": reason})
	}
	// A server-side failure is logged; the client learns only its type.
	serverError := func(t autherr.Type, err error) {
		f.cfg.Logger.Error("gatehouse: "+string(t), "provider", id, "step", "webauthn-options", "err", err)
		httpx.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": string(t)})
	}
	if f.host.RateLimited(w, r, id) {
		return
	}
	action := cmp.Or(r.URL.Query().Get("action"), webauthnrp.ActionAuthenticate)
	if action != webauthnrp.ActionAuthenticate && action != webauthnrp.ActionRegister {
		bad("Invalid action", `action must be "authenticate" or "register"`)
		return
	}
	wa, _, err := webauthnrp.New(p, f.host.Origin(r))
	if err != nil {
		serverError(autherr.Configuration, err)
		return
	}

	// The session only (its first digest): the ceremony's requests are
	// same-origin, made by the page's script.
	st := webauthnrp.ChallengeState{Action: action, Binding: f.host.Binding(r)[:checks.BindingLen]}
	var options any
	if action == webauthnrp.ActionAuthenticate {
		// Discoverable credentials: the browser offers the passkeys it has
		// for this RP id, so no user name is asked for and none is
		// revealed (no allowCredentials list).
		a, sess, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.UserVerificationRequirement(p.UserVerification)))
		if err != nil {
			serverError(autherr.Configuration, err)
			return
		}
		st.Session, options = *sess, a.Response
	} else {
		user, reason, err := f.registrant(r.Context(), r)
		if err != nil {
			serverError(autherr.AdapterError, err)
			return
		}
		if reason != "" {
			bad("Invalid request", reason)
			return
		}
		c, sess, err := wa.BeginRegistration(user, webauthn.WithExclusions(webauthn.Credentials(user.Creds).CredentialDescriptors()),
			webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirement(p.ResidentKey)))
		if err != nil {
			serverError(autherr.Configuration, err)
			return
		}
		st.Session, options, st.UserID, st.NewUser = *sess, c.Response, user.ID, user.NewUser
	}

	names := f.host.Cookies(r)
	raw, err := json.Marshal(st)
	if err == nil {
		var sealed string
		if sealed, err = f.cfg.Sealer.Seal(names.Challenge, id, string(raw)); err == nil {
			names.Set(w, names.Challenge, sealed, time.Now().Add(p.Timeout))
		}
	}
	if err != nil {
		serverError(autherr.Configuration, err)
		return
	}
	// Where to land afterwards, as for the other providers' sign-in.
	if cb := r.URL.Query().Get("callbackUrl"); cb != "" {
		names.Set(w, names.CallbackURL, f.host.CallbackURL(r, cb), time.Time{}) // same-origin, never ""
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"action": action, "options": options})
}

// registrant returns who a registration is for: the signed-in user, or a
// new user when the provider allows sign-up. A non-empty reason says why
// there is nobody.
func (f *Flow) registrant(ctx context.Context, r *http.Request) (*webauthnrp.User, string, error) {
	current, err := f.host.CurrentUserID(ctx, r)
	if err != nil {
		return nil, "", err
	}
	if current != "" {
		u, err := f.cfg.Adapter.GetUser(ctx, current)
		if err != nil {
			return nil, "", err
		}
		if len(u.ID) > 64 {
			// The user handle is the user id; WebAuthn §5.4.3 caps it at 64 bytes.
			return nil, "", fmt.Errorf("user id %q is longer than the 64 bytes a WebAuthn user handle may have", u.ID)
		}
		list, err := f.cfg.Store.ListAuthenticatorsByUserID(ctx, u.ID)
		if err != nil {
			return nil, "", err
		}
		wu := &webauthnrp.User{ID: u.ID, Name: cmp.Or(u.Email, u.Name, u.ID), Display: cmp.Or(u.Name, u.Email, u.ID)}
		for _, a := range list {
			wu.Creds = append(wu.Creds, webauthnrp.CredentialOf(a))
		}
		return wu, "", nil
	}
	if !f.cfg.Provider.SignUp {
		return nil, "registering a passkey needs a signed-in user", nil
	}
	nu, err := f.cfg.Provider.GetUserInfo(ctx, r)
	if err != nil || nu.Email == "" {
		return nil, "sign-up needs an e-mail address", nil
	}
	// The user handle is the id the new user will get: random, not the
	// address (WebAuthn §14.6.1: no personal data in the handle).
	nu.ID = newUserID()
	return &webauthnrp.User{ID: nu.ID, Name: nu.Email, Display: cmp.Or(nu.Name, nu.Email), NewUser: &nu}, "", nil
}

// newUserID returns a random user id: 16 bytes, in hex.
func newUserID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// SignIn answers POST {base}/signin/{provider}: passkeys start on the
// sign-in page's script, so the browser is sent there.
func (f *Flow) SignIn(w http.ResponseWriter, r *http.Request, _ url.Values) {
	httpx.Redirect(w, r, f.host.URL(r, "signin"))
}

// Info returns the provider's id, name and type.
func (f *Flow) Info() providers.Base {
	p := f.cfg.Provider
	return providers.Base{ID: p.ID, Name: p.Name, Type: providers.TypeWebAuthn}
}

// SignUp reports whether people who are not signed in may create a user
// with an unverified e-mail address.
func (f *Flow) SignUp() bool { return f.cfg.Provider.SignUp }

// Way counts the user's passkeys: ways to sign in besides linked
// accounts.
func (f *Flow) Way(ctx context.Context, userID string, _ func() (adapter.User, error)) (string, int, error) {
	keys, err := f.cfg.Store.ListAuthenticatorsByUserID(ctx, userID)
	return "Passkey", len(keys), err
}

// CrossSiteCallback: the page's own script posts the callback.
func (*Flow) CrossSiteCallback() bool { return false }

// AddTo puts the provider's part on the built-in sign-in page.
func (f *Flow) AddTo(page *pages.SignIn, _ providers.AppProvider, b *site.Base) {
	p, path := f.cfg.Provider, b.Path
	page.Forms = append(page.Forms, pages.WebAuthnForm{ID: p.ID, Name: p.Name, OptionsURL: path + "/webauthn-options/" + p.ID,
		CallbackURL: path + "/callback/" + p.ID, Conditional: !p.DisableConditionalUI, SignUp: p.SignUp})
}

// The form's markup is form.templ, compiled to form_templ.go (committed)
// by the templ command the pages use (see pages/generate.go).
//go:generate go -C ../tools tool templ generate -path ../passkeyflow -log-level warn

// Form renders the signIn template helper's form for the base path, the
// CSRF token and where to land.
func (f *Flow) Form(path string, o pages.HelperForm) template.HTML {
	if o.Label == "" {
		o.Label = pages.Text(o.Lang, "signin.with", f.cfg.Provider.Name)
	}
	var b strings.Builder
	c := form(path+"/callback/"+f.cfg.Provider.ID, path+"/webauthn-options/"+f.cfg.Provider.ID, o.CSRF, o.Callback, o.Label, o.Class)
	_ = c.Render(context.Background(), &b) // a strings.Builder does not fail
	return template.HTML(b.String())       // escaped by templ (form.templ)
}
