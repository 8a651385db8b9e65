package gatehouse

import (
	"errors"
	"fmt"
)

// ErrorType is the public kind of a failure: the value of ?error= on the
// error and sign-in pages. The Auth.js types keep their Auth.js names, so
// front ends written for Auth.js understand them; the others name
// failures that Auth.js reports as Configuration.
//
// An ErrorType is itself an error, so errors.Is(err, gatehouse.InvalidCheck)
// tells the kind of any error the handler reports.
type ErrorType string

// The error types.
const (
	Configuration          ErrorType = "Configuration"          // the server is misconfigured
	AccessDenied           ErrorType = "AccessDenied"           // the SignIn callback said no
	Verification           ErrorType = "Verification"           // an e-mail link is used, expired or unknown
	MissingCSRF            ErrorType = "MissingCSRF"            // a POST without a valid CSRF token
	InvalidCheck           ErrorType = "InvalidCheck"           // state, PKCE, nonce or iss check failed
	OAuthSignin            ErrorType = "OAuthSignin"            // the authorization request could not be built
	OAuthCallbackError     ErrorType = "OAuthCallbackError"     // the provider answered with an error, or a malformed response
	OAuthAccountNotLinked  ErrorType = "OAuthAccountNotLinked"  // the e-mail belongs to a user linked to another provider
	OAuthProfileParseError ErrorType = "OAuthProfileParseError" // the profile could not be read or mapped
	InvalidIDToken         ErrorType = "InvalidIDToken"         // the ID token failed verification
	TokenExchangeFailed    ErrorType = "TokenExchangeFailed"    // the token endpoint refused the code or failed
	UserinfoFailed         ErrorType = "UserinfoFailed"         // the userinfo endpoint failed or disagreed with the ID token
	ProviderUnavailable    ErrorType = "ProviderUnavailable"    // discovery or keys could not be fetched
	UnknownProvider        ErrorType = "UnknownProvider"        // no provider has that id
	CallbackRouteError     ErrorType = "CallbackRouteError"     // a callback failed in an application callback
	SessionRequired        ErrorType = "SessionRequired"        // the page needs a signed-in user
	AdapterError           ErrorType = "AdapterError"           // the database failed
	CredentialsSignin      ErrorType = "CredentialsSignin"      // Authorize refused the credentials
	EmailSignInError       ErrorType = "EmailSignInError"       // the typed e-mail address is malformed
	EmailSignin            ErrorType = "EmailSignin"            // the sign-in e-mail could not be sent
	TooManyRequests        ErrorType = "TooManyRequests"        // too many failed attempts: wait (429, Retry-After)

	// WebAuthnVerificationError: a passkey response failed verification
	// (challenge, origin, RP id, flags, signature or sign counter).
	WebAuthnVerificationError ErrorType = "WebAuthnVerificationError"
	// AccountNotLinked: a passkey cannot be tied to the user (Auth.js's
	// WebAuthn counterpart of OAuthAccountNotLinked).
	AccountNotLinked ErrorType = "AccountNotLinked"
	// AccountLinkMismatch: a sign-in that was not started by the session
	// this browser holds (a planted check cookie, or credentials, an
	// e-mail link or a passkey for another user while signed in). Nothing
	// is linked and the session is left as it was (binding.go).
	AccountLinkMismatch ErrorType = "AccountLinkMismatch"
)

func (t ErrorType) Error() string { return string(t) }

// signInKind reports whether the error is shown on the sign-in page (the
// user can simply try again) rather than on the error page (Auth.js's
// error kinds).
func (t ErrorType) signInKind() bool {
	switch t {
	case MissingCSRF, OAuthCallbackError, OAuthAccountNotLinked, SessionRequired,
		CredentialsSignin, EmailSignInError, EmailSignin, TooManyRequests,
		WebAuthnVerificationError, AccountNotLinked:
		return true
	}
	return false
}

// Error is a failure in the sign-in flow: what kind (Type), a stable
// specific code for the error page and for support (Code, e.g.
// "state_mismatch" or "invalid_grant"), where (Provider, Step) and why
// (Err, logged but never shown to the user).
type Error struct {
	Type     ErrorType
	Code     string
	Provider string
	Step     string
	Err      error
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

// Is makes errors.Is(err, SomeErrorType) work.
func (e *Error) Is(target error) bool {
	t, ok := target.(ErrorType)
	return ok && t == e.Type
}

// ConfigError is returned by New for an invalid configuration. Field names
// the configuration field; Provider the provider, when it is about one.
type ConfigError struct {
	Provider string
	Field    string
	Reason   string
	Err      error
}

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

// asError returns err as an *Error, wrapping anything else as t.
func asError(err error, t ErrorType, code, provider, step string) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Type: t, Code: code, Provider: provider, Step: step, Err: err}
}

// crossSite is the error for a state-changing request from another origin
// (csrf.go sameOrigin): MissingCSRF with code cross_site, 403.
func crossSite(step, provider string, err error) *Error {
	return &Error{Type: MissingCSRF, Code: "cross_site", Provider: provider, Step: step, Err: err}
}
