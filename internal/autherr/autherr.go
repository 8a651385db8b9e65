// Package autherr holds Gatehouse's one error type: the kind of a failure
// (its public name, shown as ?error= on the pages), a stable code, where it
// happened and why. The root package re-exports both types
// (gatehouse.Error, gatehouse.ErrorType) and their constants; the
// relying-party client (internal/rp) and the flows build their errors with
// New, so that every failure reaches the user and the log in one shape.
package autherr

import (
	"errors"
	"fmt"
)

// Type is the public kind of a failure: the value of ?error= on the error
// and sign-in pages. The Auth.js types keep their Auth.js names, so front
// ends written for Auth.js understand them; the others name failures that
// Auth.js reports as Configuration.
//
// A Type is itself an error, so errors.Is(err, gatehouse.InvalidCheck)
// tells the kind of any error the handler reports.
type Type string

// The error types.
const (
	Configuration          Type = "Configuration"          // the server is misconfigured
	AccessDenied           Type = "AccessDenied"           // the SignIn callback said no
	Verification           Type = "Verification"           // an e-mail link is used, expired or unknown
	MissingCSRF            Type = "MissingCSRF"            // a POST without a valid CSRF token
	InvalidCheck           Type = "InvalidCheck"           // state, PKCE, nonce or iss check failed
	OAuthSignin            Type = "OAuthSignin"            // the authorization request could not be built
	OAuthCallbackError     Type = "OAuthCallbackError"     // the provider answered with an error, or a malformed response
	OAuthAccountNotLinked  Type = "OAuthAccountNotLinked"  // the e-mail belongs to a user linked to another provider
	OAuthProfileParseError Type = "OAuthProfileParseError" // the profile could not be read or mapped
	InvalidIDToken         Type = "InvalidIDToken"         // the ID token failed verification
	TokenExchangeFailed    Type = "TokenExchangeFailed"    // the token endpoint refused the code or failed
	UserinfoFailed         Type = "UserinfoFailed"         // the userinfo endpoint failed or disagreed with the ID token
	ProviderUnavailable    Type = "ProviderUnavailable"    // discovery or keys could not be fetched
	UnknownProvider        Type = "UnknownProvider"        // no provider has that id
	CallbackRouteError     Type = "CallbackRouteError"     // a callback failed in an application callback
	SessionRequired        Type = "SessionRequired"        // the page needs a signed-in user
	AdapterError           Type = "AdapterError"           // the database failed
	CredentialsSignin      Type = "CredentialsSignin"      // Authorize refused the credentials
	EmailSignInError       Type = "EmailSignInError"       // the typed e-mail address is malformed
	EmailSignin            Type = "EmailSignin"            // the sign-in e-mail could not be sent
	TooManyRequests        Type = "TooManyRequests"        // too many failed attempts: wait (429, Retry-After)

	// WebAuthnVerificationError: a passkey response failed verification
	// (challenge, origin, RP id, flags, signature or sign counter).
	WebAuthnVerificationError Type = "WebAuthnVerificationError"
	// AccountNotLinked: a passkey cannot be tied to the user (Auth.js's
	// WebAuthn counterpart of OAuthAccountNotLinked).
	AccountNotLinked Type = "AccountNotLinked"
	// AccountLinkMismatch: a sign-in that was not started by the session
	// this browser holds (a planted check cookie, or credentials, an
	// e-mail link or a passkey for another user while signed in). Nothing
	// is linked and the session is left as it was.
	AccountLinkMismatch Type = "AccountLinkMismatch"
	// TwoFactorFailed: the second step of a two-factor sign-in could not
	// go on (its pending state expired, was tampered with or belongs to
	// another browser); the user signs in again from the first factor.
	TwoFactorFailed Type = "TwoFactorFailed"
	// EmailUnverified: a right password for an address not confirmed
	// yet (the password-accounts provider); a new link was sent.
	EmailUnverified Type = "EmailUnverified"
	// Banned: an administrator banned the user (package admin); the
	// sign-in is refused until the ban is lifted or expires.
	Banned Type = "Banned"
)

func (t Type) Error() string { return string(t) }

// Error is a failure in the sign-in flow: what kind (Type), a stable
// specific code for the error page and for support (Code, e.g.
// "state_mismatch" or "invalid_grant"), where (Provider, Step) and why
// (Err, logged but never shown to the user).
type Error struct {
	Type     Type
	Code     string
	Provider string
	Step     string
	Err      error
	// Repeats is 0 for one failure. A report with Repeats n > 0 is a
	// summary: n more failures of the same type, provider and step (and
	// code, for most types) came within a short window after the one
	// reported before, and were not reported one by one. Counters add
	// max(1, Repeats).
	Repeats int
}

// New returns the error of kind t with the given code, place and cause:
// the one way Gatehouse builds an *Error.
func New(t Type, code, provider, step string, err error) *Error {
	return &Error{Type: t, Code: code, Provider: provider, Step: step, Err: err}
}

// Wrap returns err as an *Error when it is one (anywhere in its chain),
// and otherwise New(t, code, provider, step, err).
func Wrap(err error, t Type, code, provider, step string) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(t, code, provider, step, err)
}

func (e *Error) Error() string {
	s := string(e.Type)
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	if e.Provider != "" {
		s += fmt.Sprintf(" at provider %q", e.Provider)
	}
	if e.Step != "" {
		s += " in step " + e.Step
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, SomeType) work.
func (e *Error) Is(target error) bool {
	t, ok := target.(Type)
	return ok && t == e.Type
}

// ErrSignInAgain is in the chain of errors that only a new sign-in can
// cure: no session, no account at the provider, no refresh token, or a
// refresh token the provider refused (re-exported as
// gatehouse.ErrSignInAgain).
var ErrSignInAgain = errors.New("gatehouse: the user must sign in again")

// OnSignIn reports whether an error of type t is shown on the sign-in
// page (the user can simply try again) rather than on the error page
// (Auth.js's error kinds).
func (t Type) OnSignIn() bool {
	switch t {
	case MissingCSRF, OAuthCallbackError, OAuthAccountNotLinked, SessionRequired,
		CredentialsSignin, EmailSignInError, EmailSignin, TooManyRequests,
		WebAuthnVerificationError, AccountNotLinked, TwoFactorFailed, EmailUnverified:
		return true
	}
	return false
}

// ConfigError is an invalid configuration (gatehouse.ConfigError, the
// error of gatehouse.New).
type ConfigError struct {
	Provider string // the provider it is about, if any
	Field    string // the configuration field, e.g. "Secret" or "Pages.SignIn"
	Reason   string // what is wrong, when Err does not say
	Err      error  // the cause, if any
}

// Error says where the configuration is wrong and why.
func (e *ConfigError) Error() string {
	where := "gatehouse: config"
	if e.Provider != "" {
		where += fmt.Sprintf(": provider %q", e.Provider)
	}
	if e.Field != "" {
		where += ": " + e.Field
	}
	if e.Reason != "" {
		return where + ": " + e.Reason
	}
	return where + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, Configuration) true for configuration errors.
func (e *ConfigError) Is(target error) bool { return target == Configuration }

// CrossSite is the error for a state-changing request from another origin
// (checks.SameOrigin): MissingCSRF with code cross_site, 403.
func CrossSite(step, provider string, err error) *Error {
	return New(MissingCSRF, "cross_site", provider, step, err)
}

// PublicCode reports whether s has the shape of an error code the error
// page may show: 1 to 64 of a-z, 0-9 and '_' (a code from a query or an
// application's error, never free text).
func PublicCode(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
