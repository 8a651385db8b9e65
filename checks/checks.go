// Package checks makes and verifies the values that tie an OAuth callback to
// the browser and the sign-in that started it: the PKCE verifier (RFC 7636),
// the state (RFC 6749 §10.12), the OpenID Connect nonce (Core §3.1.2.1) and
// the RFC 9207 iss response parameter.
//
// Values travel to the callback in short-lived cookies sealed by a Sealer
// (encrypted and authenticated with AES-256-GCM). A sealed value is
// bound to its cookie name and to the provider that made it, so a value
// minted in one provider's flow cannot be redeemed at another's callback
// (the Auth.js advisory GHSA-x445-f3h2-j279).
//
// Every failure is an *Error whose Check says which check failed and which
// wraps one of the sentinel errors, for errors.Is.
//
// The checks of requests from the browser itself are here too: the CSRF
// token (CSRF, Auth.js's signed double-submit cookie), the origin of
// state-changing requests (SameOrigin) and the places the browser may be
// sent back to (SafeRedirect).
package checks

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
)

// Kind names a check.
type Kind string

// The checks.
const (
	State  Kind = "state"
	PKCE   Kind = "pkce"
	Nonce  Kind = "nonce"
	Issuer Kind = "iss"
)

// Sentinel causes, for errors.Is.
var (
	// ErrCookieMissing: the browser did not send the check cookie back
	// (it expired, or was dropped by SameSite, a host or a path mismatch).
	ErrCookieMissing = errors.New("check cookie missing")
	// ErrCookieInvalid: the cookie could not be opened: tampered, sealed
	// with an unknown secret, expired, or made for another cookie.
	ErrCookieInvalid = errors.New("check cookie invalid or expired")
	// ErrWrongProvider: the cookie was made in another provider's flow.
	ErrWrongProvider = errors.New("check cookie made for another provider")
	// ErrParamMissing: the provider's response lacks the value.
	ErrParamMissing = errors.New("missing from the response")
	// ErrMismatch: the response's value differs from the expected one.
	ErrMismatch = errors.New("does not match")
)

// Error is a failed check.
type Error struct {
	Check Kind
	Err   error // one of the sentinel causes, possibly wrapped
}

func (e *Error) Error() string { return fmt.Sprintf("%s check failed: %v", e.Check, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Code is a stable, public identifier of the failure, such as
// "state_mismatch", for error pages and logs.
func (e *Error) Code() string {
	var why string
	switch {
	case errors.Is(e.Err, ErrCookieMissing):
		why = "cookie_missing"
	case errors.Is(e.Err, ErrCookieInvalid):
		why = "cookie_invalid"
	case errors.Is(e.Err, ErrWrongProvider):
		why = "wrong_provider"
	case errors.Is(e.Err, ErrParamMissing):
		why = "missing"
	case errors.Is(e.Err, ErrMismatch):
		why = "mismatch"
	default:
		why = "failed"
	}
	return string(e.Check) + "_" + why
}

func fail(k Kind, err error) error { return &Error{Check: k, Err: err} }

// random returns 32 bytes from crypto/rand, base64url without padding:
// 256 bits, well above the 128 that RFC 9700 §2.1.1 and FAPI 2.0 ask of
// one-time values.
func random() string {
	var b [32]byte
	// crypto/rand.Read never fails on supported platforms (Go 1.24+); it
	// crashes the program rather than return weak bytes.
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// NewVerifier returns a fresh PKCE code verifier: 43 characters of the
// unreserved set, as RFC 7636 §4.1 recommends.
func NewVerifier() string { return random() }

// Challenge returns the S256 code challenge of verifier:
// BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 §4.2). The plain method
// is never used (RFC 9700 §2.1.1).
func Challenge(verifier string) string {
	var in [128]byte // a verifier is 43 to 128 characters (RFC 7636 §4.1)
	var sum [sha256.Size]byte
	if len(verifier) <= len(in) {
		sum = sha256.Sum256(in[:copy(in[:], verifier)])
	} else {
		sum = sha256.Sum256([]byte(verifier))
	}
	var text [43]byte // base64url of 32 bytes
	return string(base64.RawURLEncoding.AppendEncode(text[:0], sum[:]))
}

// NewState returns a fresh, unguessable state value.
func NewState() string { return random() }

// NewNonce returns a fresh, unguessable nonce.
func NewNonce() string { return random() }

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// VerifyState compares the state parameter of the authorization response
// with the one sealed in the browser's cookie.
func VerifyState(param, expected string) error { return verifySent(State, param, expected) }

// VerifyNonce compares the ID token's nonce claim with the one sealed in
// the browser's cookie (OpenID Connect Core §3.1.3.7 step 11).
func VerifyNonce(claim, expected string) error { return verifySent(Nonce, claim, expected) }

// verifySent compares the value of check k that came back from the
// provider, got, with the one sealed in the browser's cookie.
func verifySent(k Kind, got, expected string) error {
	switch {
	case got == "":
		return fail(k, ErrParamMissing)
	case !equal(got, expected):
		return fail(k, ErrMismatch)
	}
	return nil
}

// VerifyIssuer applies RFC 9207 §2.4 to the authorization response's iss
// parameter: when present it must equal the expected issuer by simple
// string comparison; when absent it is an error if the provider's metadata
// says it sends one (required). With no expected issuer known, a present
// iss cannot be checked and is an error too: a response from an unknown
// issuer is how a mix-up attack looks (RFC 9700 §4.4).
func VerifyIssuer(param, expected string, required bool) error {
	switch {
	case param == "" && required:
		return fail(Issuer, ErrParamMissing)
	case param == "":
		return nil
	case expected == "" || param != expected:
		return fail(Issuer, ErrMismatch)
	}
	return nil
}
