package pages

import "net/http"

// errorInfo is what the pages know about one ?error= type: its status
// and the catalogue key of its sentence.
type errorInfo struct {
	status  int
	message string
}

// Sentences shared by several types, by catalogue key. The first three
// are the Auth.js sign-in page's own, kept so that an application moving
// from Auth.js shows its users the same words.
const (
	msgDifferentAccount = "error.msg.differentAccount"
	msgNotLinked        = "error.msg.notLinked"
	msgUnknown          = "error.msg.unknown"
)

// errorTypes holds the status and sentence of every ?error= type the pages
// know. ErrorStatus and ErrorMessage read it; the table in ErrorStatus's
// doc comment must be kept in step with it (a test checks).
var errorTypes = map[string]errorInfo{
	// Auth.js's sign-in page types, with its sentences.
	"Signin":                {http.StatusBadRequest, msgDifferentAccount},
	"OAuthSignin":           {http.StatusBadGateway, msgDifferentAccount},
	"OAuthCallbackError":    {http.StatusBadRequest, msgDifferentAccount},
	"OAuthCreateAccount":    {http.StatusInternalServerError, msgDifferentAccount},
	"EmailCreateAccount":    {http.StatusInternalServerError, msgDifferentAccount},
	"Callback":              {http.StatusBadRequest, msgDifferentAccount},
	"OAuthAccountNotLinked": {http.StatusBadRequest, msgNotLinked},
	"AccountNotLinked":      {http.StatusBadRequest, msgNotLinked},
	"AccountLinkMismatch":   {http.StatusForbidden, "error.msg.AccountLinkMismatch"},
	"EmailSignin":           {http.StatusInternalServerError, "error.msg.EmailSignin"},
	"CredentialsSignin":     {http.StatusBadRequest, "error.msg.CredentialsSignin"},
	"EmailSignInError":      {http.StatusBadRequest, "error.msg.EmailSignInError"},
	"TooManyRequests":       {http.StatusTooManyRequests, "error.msg.TooManyRequests"},
	"SessionRequired":       {http.StatusForbidden, "error.msg.SessionRequired"},
	"TwoFactorFailed":       {http.StatusForbidden, "error.msg.TwoFactorFailed"},

	// The error page's types and Gatehouse's own.
	"Configuration":             {http.StatusInternalServerError, "error.msg.Configuration"},
	"AdapterError":              {http.StatusServiceUnavailable, "error.msg.AdapterError"},
	"CallbackRouteError":        {http.StatusInternalServerError, "error.msg.CallbackRouteError"},
	"AccessDenied":              {http.StatusForbidden, "error.msg.AccessDenied"},
	"Verification":              {http.StatusForbidden, "error.msg.Verification"},
	"MissingCSRF":               {http.StatusForbidden, "error.msg.MissingCSRF"},
	"InvalidCheck":              {http.StatusBadRequest, "error.msg.InvalidCheck"},
	"OAuthProfileParseError":    {http.StatusBadGateway, "error.msg.OAuthProfileParseError"},
	"InvalidIDToken":            {http.StatusBadGateway, "error.msg.InvalidIDToken"},
	"TokenExchangeFailed":       {http.StatusBadGateway, "error.msg.TokenExchangeFailed"},
	"UserinfoFailed":            {http.StatusBadGateway, "error.msg.UserinfoFailed"},
	"ProviderUnavailable":       {http.StatusBadGateway, "error.msg.ProviderUnavailable"},
	"UnknownProvider":           {http.StatusNotFound, "error.msg.UnknownProvider"},
	"WebAuthnVerificationError": {http.StatusBadRequest, "error.msg.WebAuthnVerificationError"},
	"EmailUnverified":           {http.StatusForbidden, "error.msg.EmailUnverified"},
	"Banned":                    {http.StatusForbidden, "error.msg.Banned"},
}

// ErrorStatus returns the HTTP status of the error page for an ?error=
// type. The reasoning: 500 when this server is at fault, 502 when the
// sign-in provider failed or answered with something unusable, 403 when
// the request was understood and refused, 404 for a sign-in method that
// does not exist, and 400 for a sign-in attempt that cannot go on as sent
// (including any type not listed). Auth.js answers 200 for everything but
// Configuration, AccessDenied and Verification; a precise status lets logs
// and monitoring tell a provider outage from a user typing a wrong
// password.
//
//	type                        status
//	Configuration               500  server configuration
//	AdapterError                503  the database failed (with Retry-After)
//	CallbackRouteError          500  an application callback failed
//	OAuthCreateAccount          500  creating the user failed
//	EmailCreateAccount          500  creating the user failed
//	EmailSignin                 500  the e-mail could not be sent
//	OAuthSignin                 502  building the provider request failed (discovery)
//	TokenExchangeFailed         502  the token endpoint refused or failed
//	UserinfoFailed              502  the userinfo endpoint failed
//	ProviderUnavailable         502  the provider did not answer
//	OAuthProfileParseError      502  the provider's profile is unreadable
//	InvalidIDToken              502  the provider's ID token failed verification
//	AccessDenied                403  a callback refused this user
//	Verification                403  the e-mail link is used or expired
//	MissingCSRF                 403  the CSRF token is missing or wrong
//	SessionRequired             403  no session (401 would need a WWW-Authenticate challenge)
//	UnknownProvider             404  no such provider
//	InvalidCheck                400  state, PKCE or nonce check failed
//	OAuthCallbackError          400  the provider sent the user back with an error
//	OAuthAccountNotLinked       400  e-mail already used with another provider
//	AccountNotLinked            400  same, for passkeys
//	AccountLinkMismatch         403  a sign-in not started by this browser session
//	TwoFactorFailed             403  the two-factor step expired or is not this browser's
//	CredentialsSignin           400  wrong credentials
//	EmailSignInError            400  the typed e-mail address is malformed
//	TooManyRequests             429  too many failed attempts: wait
//	WebAuthnVerificationError   400  the passkey could not be verified
//	EmailUnverified             403  the password account's address is not confirmed yet
//	Banned                      403  an administrator banned the user
//	Signin, Callback            400  Auth.js's generic types
//	anything else               400
func ErrorStatus(errType string) int {
	if e, ok := errorTypes[errType]; ok {
		return e.status
	}
	return http.StatusBadRequest
}

// ErrorMessage returns one sentence that tells a user what went wrong for
// an ?error= type, for the sign-in page's banner and the error page. The
// types the Auth.js sign-in page knows keep its wording; an unknown type
// (the value comes from the query string, so anything can arrive) gives
// "Unable to sign in.".
func ErrorMessage(errType string) string {
	return errorMessage(English, errType)
}

// errorMessage is ErrorMessage in lang.
func errorMessage(lang Language, errType string) string {
	if e, ok := errorTypes[errType]; ok {
		return Text(lang.Tag, e.message)
	}
	return Text(lang.Tag, msgUnknown)
}

// errorHeading returns the catalogue key of the error page's heading for
// a type.
func errorHeading(errType string) string {
	switch errType {
	case "Configuration", "AdapterError":
		return "error.heading.server"
	case "AccessDenied":
		return "error.heading.denied"
	case "Verification":
		return "error.heading.link"
	}
	return "error.heading.default"
}
