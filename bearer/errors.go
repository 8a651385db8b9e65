package bearer

import (
	"errors"
	"net/http"
)

// The errors Verify, VerifyRequest and the middleware return, each wrapped
// with detail: test them with errors.Is. Their messages are fixed ASCII
// text, safe to send back as an RFC 6750 error_description; the wrapped
// detail is for logs only.
var (
	// ErrNoToken: the request carries no access token.
	ErrNoToken = errors.New("no access token")
	// ErrMalformedRequest: the Authorization header is not one well-formed
	// "Bearer <token>" or "DPoP <token>", or there are several.
	ErrMalformedRequest = errors.New("malformed authorization")
	// ErrTokenInQuery: an access_token query parameter. Tokens in URLs end
	// up in logs and Referer headers (RFC 6750 §2.3, RFC 9700 §2.4.3).
	ErrTokenInQuery = errors.New("access token in query string refused")

	// ErrMalformed: the token is neither a compact JWS nor, when
	// introspection is configured, accepted as opaque.
	ErrMalformed = errors.New("malformed token")
	// ErrAlgorithm: the token's alg is not one of Config.Algorithms
	// (none and HMAC are never accepted).
	ErrAlgorithm = errors.New("signature algorithm not accepted")
	// ErrType: the token's typ header is not Config.Type.
	ErrType = errors.New("token type not accepted")
	// ErrIssuer: iss is not Config.Issuer.
	ErrIssuer = errors.New("wrong issuer")
	// ErrAudience: aud names none of Config.Audience.
	ErrAudience = errors.New("wrong audience")
	// ErrExpired: exp is past (beyond the leeway) or missing.
	ErrExpired = errors.New("token expired")
	// ErrNotYetValid: nbf or iat is in the future beyond the leeway.
	ErrNotYetValid = errors.New("token not yet valid")
	// ErrUnknownKey: no key of the issuer's JWKS, even refetched, has the
	// token's kid and algorithm.
	ErrUnknownKey = errors.New("unknown signing key")
	// ErrSignature: the signature does not verify.
	ErrSignature = errors.New("invalid signature")
	// ErrInactive: the introspection endpoint says the token is not active.
	ErrInactive = errors.New("token not active")

	// ErrDPoPRequired: the token is bound to a key (cnf.jkt) but came as
	// a plain bearer token or without a DPoP proof (RFC 9449 §7.1).
	ErrDPoPRequired = errors.New("DPoP proof required")
	// ErrDPoPProof: the DPoP proof is malformed, badly signed, stale, or
	// signed by a key other than the one the token is bound to.
	ErrDPoPProof = errors.New("invalid DPoP proof")
	// ErrDPoPMismatch: the proof was made for another method or URL
	// (htm/htu), or for another access token (ath).
	ErrDPoPMismatch = errors.New("DPoP proof for another request")
	// ErrDPoPReplay: the proof's jti was already used.
	ErrDPoPReplay = errors.New("DPoP proof replayed")

	// ErrBinding: the token is bound (cnf) by a method other than DPoP,
	// such as an mTLS client certificate (RFC 8705), which this package
	// cannot check.
	ErrBinding = errors.New("token binding not supported")

	// ErrInsufficientScope: the token lacks a scope RequireScope needs.
	ErrInsufficientScope = errors.New("insufficient scope")

	// ErrUnavailable: the issuer's metadata, JWKS or introspection
	// endpoint could not be used (network error, bad status, oversized or
	// malformed answer, redirect). The token may be fine: the middleware
	// answers 503, not 401.
	ErrUnavailable = errors.New("token issuer unavailable")
)

// ErrTooLarge is wrapped (beside ErrUnavailable) when an issuer's answer
// exceeds Config.MaxResponseBytes.
var ErrTooLarge = errors.New("issuer answer too large")

// ErrRedirect is wrapped (beside ErrUnavailable) when an issuer endpoint
// answers with a redirect: key material and introspection answers are only
// taken from the configured URL, never from wherever a redirect points.
var ErrRedirect = errors.New("issuer endpoint redirected")

// status maps an error to its RFC 6750 §3.1 (or RFC 9449 §7.1) error code
// and HTTP status. An empty code means "no error code": RFC 6750 §3.1 says
// a request without credentials gets only the challenge.
func status(err error) (code string, httpStatus int) {
	switch {
	case errors.Is(err, ErrNoToken):
		return "", http.StatusUnauthorized
	case errors.Is(err, ErrMalformedRequest), errors.Is(err, ErrTokenInQuery):
		return "invalid_request", http.StatusBadRequest
	case errors.Is(err, ErrInsufficientScope):
		return "insufficient_scope", http.StatusForbidden
	case errors.Is(err, ErrDPoPProof), errors.Is(err, ErrDPoPMismatch), errors.Is(err, ErrDPoPReplay):
		return "invalid_dpop_proof", http.StatusUnauthorized
	case errors.Is(err, ErrUnavailable):
		return "", http.StatusServiceUnavailable
	}
	return "invalid_token", http.StatusUnauthorized
}

// description is the fixed message of the sentinel err wraps: only those
// reach the client, never the wrapped detail.
func description(err error) string {
	for _, e := range []error{
		ErrNoToken, ErrMalformedRequest, ErrTokenInQuery, ErrMalformed, ErrAlgorithm, ErrType,
		ErrIssuer, ErrAudience, ErrExpired, ErrNotYetValid, ErrUnknownKey, ErrSignature,
		ErrInactive, ErrBinding, ErrDPoPRequired, ErrDPoPProof, ErrDPoPMismatch, ErrDPoPReplay, ErrInsufficientScope, ErrUnavailable,
	} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return "invalid token"
}
