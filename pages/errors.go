package pages

import "net/http"

// errorInfo is what the pages know about one ?error= type.
type errorInfo struct {
	status  int
	message string
}

// Sentences shared by several types. The first four are the Auth.js
// sign-in page's own, kept so that an application moving from Auth.js
// shows its users the same words.
const (
	msgDifferentAccount = "Try signing in with a different account."
	msgNotLinked        = "To confirm your identity, sign in with the same account you used originally."
	msgUnknown          = "Unable to sign in."
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
	"AccountLinkMismatch":   {http.StatusForbidden, "This sign-in was not started here, so it was stopped and nothing was changed. To use another account, sign out first, then sign in again."},
	"EmailSignin":           {http.StatusInternalServerError, "The e-mail could not be sent."},
	"CredentialsSignin":     {http.StatusBadRequest, "Sign-in failed. Check the details you provided are correct."},
	"EmailSignInError":      {http.StatusBadRequest, "That e-mail address cannot receive a sign-in link. Check it and try again."},
	"TooManyRequests":       {http.StatusTooManyRequests, "Too many failed attempts. Wait a few minutes, then try again."},
	"SessionRequired":       {http.StatusForbidden, "Please sign in to access this page."},
	"TwoFactorFailed":       {http.StatusForbidden, "Your two-factor sign-in expired or could not be verified. Please sign in again."},

	// The error page's types and Gatehouse's own.
	"Configuration":             {http.StatusInternalServerError, "There is a problem with the server configuration. If you run this site, check the server logs for details."},
	"AdapterError":              {http.StatusServiceUnavailable, "Your account could not be loaded or saved. Please try again later."},
	"CallbackRouteError":        {http.StatusInternalServerError, "The sign-in could not be completed. Please try again later."},
	"AccessDenied":              {http.StatusForbidden, "You do not have permission to sign in."},
	"Verification":              {http.StatusForbidden, "The sign-in link is no longer valid. It may have been used already or it may have expired."},
	"MissingCSRF":               {http.StatusForbidden, "The sign-in form had expired. Reload the page and try again."},
	"InvalidCheck":              {http.StatusBadRequest, "The sign-in attempt could not be verified. Make sure cookies are enabled, then start again from the sign-in page."},
	"OAuthProfileParseError":    {http.StatusBadGateway, "The sign-in provider sent a profile that could not be read."},
	"InvalidIDToken":            {http.StatusBadGateway, "The sign-in provider's answer could not be verified."},
	"TokenExchangeFailed":       {http.StatusBadGateway, "The sign-in provider did not complete the sign-in. Please try again."},
	"UserinfoFailed":            {http.StatusBadGateway, "Your profile could not be fetched from the sign-in provider. Please try again."},
	"ProviderUnavailable":       {http.StatusBadGateway, "The sign-in provider is not responding. Please try again later."},
	"UnknownProvider":           {http.StatusNotFound, "This sign-in method is not available."},
	"WebAuthnVerificationError": {http.StatusBadRequest, "The passkey could not be verified."},
	"EmailUnverified":           {http.StatusForbidden, "Confirm your e-mail address first: we sent you a new link. Follow it, then sign in."},
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
	if e, ok := errorTypes[errType]; ok {
		return e.message
	}
	return msgUnknown
}

// errorHeading returns the error page's heading for a type.
func errorHeading(errType string) string {
	switch errType {
	case "Configuration", "AdapterError":
		return "Server error"
	case "AccessDenied":
		return "Access denied"
	case "Verification":
		return "Link no longer valid"
	}
	return "Unable to sign in"
}
