package gatehouse

import (
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// ErrorType is the public kind of a failure: the value of ?error= on the
// error and sign-in pages. The Auth.js types keep their Auth.js names, so
// front ends written for Auth.js understand them; the others name
// failures that Auth.js reports as Configuration.
//
// An ErrorType is itself an error, so errors.Is(err, gatehouse.InvalidCheck)
// tells the kind of any error the handler reports.
type ErrorType = autherr.Type

// Error is a failure in the sign-in flow: what kind (Type), a stable
// specific code for the error page and for support (Code, e.g.
// "state_mismatch" or "invalid_grant"), where (Provider, Step) and why
// (Err, logged but never shown to the user). errors.Is(err, t) reports
// whether it is of type t.
type Error = autherr.Error

// The error types; see internal/autherr for the meaning of each.
const (
	Configuration             = autherr.Configuration             // the server is misconfigured
	AccessDenied              = autherr.AccessDenied              // the SignIn callback said no
	Verification              = autherr.Verification              // an e-mail link is used, expired or unknown
	MissingCSRF               = autherr.MissingCSRF               // a POST without a valid CSRF token
	InvalidCheck              = autherr.InvalidCheck              // state, PKCE, nonce or iss check failed
	OAuthSignin               = autherr.OAuthSignin               // the authorization request could not be built
	OAuthCallbackError        = autherr.OAuthCallbackError        // the provider answered with an error, or a malformed response
	OAuthAccountNotLinked     = autherr.OAuthAccountNotLinked     // the e-mail belongs to a user linked to another provider
	OAuthProfileParseError    = autherr.OAuthProfileParseError    // the profile could not be read or mapped
	InvalidIDToken            = autherr.InvalidIDToken            // the ID token failed verification
	TokenExchangeFailed       = autherr.TokenExchangeFailed       // the token endpoint refused the code or failed
	UserinfoFailed            = autherr.UserinfoFailed            // the userinfo endpoint failed or disagreed with the ID token
	ProviderUnavailable       = autherr.ProviderUnavailable       // discovery or keys could not be fetched
	UnknownProvider           = autherr.UnknownProvider           // no provider has that id
	CallbackRouteError        = autherr.CallbackRouteError        // a callback failed in an application callback
	SessionRequired           = autherr.SessionRequired           // the page needs a signed-in user
	AdapterError              = autherr.AdapterError              // the database failed
	CredentialsSignin         = autherr.CredentialsSignin         // Authorize refused the credentials
	EmailSignInError          = autherr.EmailSignInError          // the typed e-mail address is malformed
	EmailSignin               = autherr.EmailSignin               // the sign-in e-mail could not be sent
	TooManyRequests           = autherr.TooManyRequests           // too many failed attempts: wait (429, Retry-After)
	WebAuthnVerificationError = autherr.WebAuthnVerificationError // a passkey response failed verification
	AccountNotLinked          = autherr.AccountNotLinked          // a passkey cannot be tied to the user
	// AccountLinkMismatch: a sign-in that was not started by the session
	// this browser holds. Nothing is linked and the session is left as it
	// was (link.go).
	AccountLinkMismatch = autherr.AccountLinkMismatch
)

// shownOnSignIn reports whether an error of type t is shown on the
// sign-in page (the user can simply try again) rather than on the error
// page (Auth.js's error kinds).
func shownOnSignIn(t ErrorType) bool {
	switch t {
	case MissingCSRF, OAuthCallbackError, OAuthAccountNotLinked, SessionRequired,
		CredentialsSignin, EmailSignInError, EmailSignin, TooManyRequests,
		WebAuthnVerificationError, AccountNotLinked:
		return true
	}
	return false
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

// crossSite is the error for a state-changing request from another origin
// (checks.SameOrigin): MissingCSRF with code cross_site, 403.
func crossSite(step, provider string, err error) *Error {
	return autherr.New(MissingCSRF, "cross_site", provider, step, err)
}

// providerConfigError turns a provider package's error into a ConfigError.
func providerConfigError(id string, err error) error {
	ce := &ConfigError{Provider: id, Err: err}
	var pe *providers.ConfigError
	if errors.As(err, &pe) {
		ce.Field, ce.Reason = pe.Field, pe.Reason
	}
	return ce
}

func lookError(provider, prefix string, err error) error {
	ce := &ConfigError{Provider: provider, Err: err}
	var fe *pages.FieldError
	if errors.As(err, &fe) {
		ce.Field = prefix + fe.Field
		ce.Reason = fmt.Sprintf("%q %s", fe.Value, fe.Reason)
	}
	return ce
}
