// Package passkey configures sign-in with passkeys: the WebAuthn provider
// types of Auth.js ("passkey" and "webauthn"). The ceremonies themselves
// run in package gatehouse, which needs an Adapter that implements
// adapter.AuthenticatorAdapter to store the credentials.
//
//	gatehouse.Config{
//		Adapter:   store, // memory, sqlite or postgres
//		Providers: []providers.Provider{passkey.New(passkey.WebAuthnConfig{})},
//	}
//
// The relying party (the site the passkeys belong to) is taken from
// Config.URL, or from each request when that is empty; set RPID and
// Origin when the site is reached under several names.
package passkey

import (
	"context"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// UserVerification is the WebAuthn user verification requirement
// (WebAuthn §5.8.6): whether the authenticator must check that the person
// is its owner (a PIN, a fingerprint, a face), not only that someone is
// present.
type UserVerification string

// The user verification requirements.
const (
	VerificationRequired    UserVerification = "required"
	VerificationPreferred   UserVerification = "preferred"
	VerificationDiscouraged UserVerification = "discouraged"
)

// ResidentKey is the WebAuthn resident key requirement (WebAuthn §5.4.6):
// whether the credential must be discoverable, so that the browser can
// offer it without being told a user name first.
type ResidentKey string

// The resident key requirements.
const (
	ResidentKeyRequired    ResidentKey = "required"
	ResidentKeyPreferred   ResidentKey = "preferred"
	ResidentKeyDiscouraged ResidentKey = "discouraged"
)

// DefaultTimeout is how long a ceremony may take, as in Auth.js: 5 minutes.
const DefaultTimeout = 5 * time.Minute

// WebAuthnConfig is a WebAuthn provider's configuration (Auth.js's
// WebAuthnConfig). New and WebAuthn fill its defaults; zero values mean
// those defaults.
type WebAuthnConfig struct {
	// ID is the provider id: "passkey" (New) or "webauthn" (WebAuthn).
	ID string
	// Name is the display name: "Passkey" or "WebAuthn".
	Name string

	// RPID is the relying party id, a registrable domain such as
	// "example.com": passkeys are bound to it (WebAuthn §5.1.2). Default:
	// the host name of Config.URL, else of the request.
	RPID string
	// RPName is the name authenticators show; default: RPID.
	RPName string
	// Origin is the origin the browser must report, e.g.
	// "https://app.example.com" (WebAuthn §13.4.9). Default: the origin
	// of Config.URL, else of the request.
	Origin string

	// Timeout bounds a ceremony, from options to callback: DefaultTimeout
	// when zero.
	Timeout time.Duration
	// UserVerification is asked for in both ceremonies and, when
	// "required", checked in the authenticator data. New: required;
	// WebAuthn: preferred.
	UserVerification UserVerification
	// ResidentKey is asked for at registration. New: required (a passkey
	// is discoverable); WebAuthn: preferred.
	ResidentKey ResidentKey
	// DisableConditionalUI turns off passkey autofill on the sign-in page
	// (Auth.js enableConditionalUI, which is on by default).
	DisableConditionalUI bool

	// SignUp lets a person who is not signed in create a new user by
	// registering a passkey with an e-mail address (Auth.js allows it
	// always). Off by default: the address is not verified, so anyone
	// could claim anyone's. With SignUp, the user is stored with that
	// address and EmailVerified nil, a stored address is never taken
	// over, and gatehouse.New refuses a configuration with an e-mail
	// provider or an OAuth provider with AllowDangerousEmailAccountLinking
	// (either would sign the address's real owner in to the squatter's
	// user, passkey included: pre-account hijacking). The real owner may
	// still find the address taken when signing in with another provider
	// later (OAuthAccountNotLinked). Without SignUp, passkeys are
	// registered by signed-in users only.
	SignUp bool
	// GetUserInfo returns the user to sign up, from the options request
	// (Auth.js getUserInfo). The default reads the "email" query
	// parameter (see DefaultUserInfo). It is used only with SignUp.
	GetUserInfo func(ctx context.Context, r *http.Request) (profile.User, error)
}

// ProviderBase returns the provider's id, name and type ("webauthn").
func (c WebAuthnConfig) ProviderBase() providers.Base {
	return providers.Base{ID: c.ID, Name: c.Name, Type: providers.TypeWebAuthn}
}

// New returns the passkey provider (Auth.js Passkey): id "passkey", name
// "Passkey", discoverable credentials and user verification required,
// with c's non-zero fields laid over those defaults.
func New(c WebAuthnConfig) WebAuthnConfig {
	return c.withDefaults(string(providers.Passkey), "Passkey", VerificationRequired, ResidentKeyRequired)
}

// WebAuthn returns the plain WebAuthn provider (Auth.js WebAuthn): id
// "webauthn", name "WebAuthn", user verification and discoverable
// credentials preferred, not required.
func WebAuthn(c WebAuthnConfig) WebAuthnConfig {
	return c.withDefaults(string(providers.WebAuthn), "WebAuthn", VerificationPreferred, ResidentKeyPreferred)
}

func (c WebAuthnConfig) withDefaults(id, name string, uv UserVerification, rk ResidentKey) WebAuthnConfig {
	if c.ID == "" {
		c.ID = id
	}
	if c.Name == "" {
		c.Name = name
	}
	if c.UserVerification == "" {
		c.UserVerification = uv
	}
	if c.ResidentKey == "" {
		c.ResidentKey = rk
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.GetUserInfo == nil {
		c.GetUserInfo = DefaultUserInfo
	}
	return c
}

// Validate reports the first invalid field.
func (c WebAuthnConfig) Validate() error {
	if err := providers.CheckID(c.ID); err != nil {
		return err
	}
	bad := func(field, reason string) error {
		return &providers.ConfigError{Provider: c.ID, Field: field, Reason: reason}
	}
	switch {
	case c.Name == "":
		return bad("name", "is empty")
	case c.Timeout <= 0 || c.Timeout > time.Hour:
		return bad("timeout", "must be between 0 and one hour (build the configuration with passkey.New)")
	case c.RPID != "" && strings.ContainsAny(c.RPID, ":/ "):
		return bad("rpId", "must be a host name without scheme or port")
	case c.Origin != "" && !strings.HasPrefix(c.Origin, "https://") && !strings.HasPrefix(c.Origin, "http://localhost"):
		return bad("origin", "must be an https origin (or http://localhost)")
	}
	switch c.UserVerification {
	case VerificationRequired, VerificationPreferred, VerificationDiscouraged:
	default:
		return bad("userVerification", "must be required, preferred or discouraged")
	}
	switch c.ResidentKey {
	case ResidentKeyRequired, ResidentKeyPreferred, ResidentKeyDiscouraged:
	default:
		return bad("residentKey", "must be required, preferred or discouraged")
	}
	if c.GetUserInfo == nil {
		return bad("getUserInfo", "is nil (build the configuration with passkey.New)")
	}
	return nil
}

// DefaultUserInfo reads the user to sign up from the request's "email"
// query parameter: a single address, lower-cased and trimmed, used as both
// the e-mail address and the name. It returns an error when there is none
// or it is not an address.
func DefaultUserInfo(_ context.Context, r *http.Request) (profile.User, error) {
	raw := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("email")))
	a, err := mail.ParseAddress(raw)
	if err != nil || a.Address != raw || len(raw) > 254 || a.Name != "" {
		return profile.User{}, errBadEmail
	}
	return profile.User{Email: raw, Name: raw}, nil
}

type errString string

func (e errString) Error() string { return string(e) }

const errBadEmail = errString("passkey: sign-up needs an e-mail address in the email parameter")
