// Package bearer verifies OAuth 2.0 access tokens for API servers: the
// RFC 9068 JWT access tokens Gatehouse issues, and those of any OAuth 2.0
// or OpenID Connect issuer, with the same code. It imports nothing else of
// Gatehouse, so a service that only checks tokens pays only for this.
//
// Build one Verifier per issuer and wrap your handlers:
//
//	v, err := bearer.New(bearer.Config{
//		Issuer:   "https://auth.example.com",
//		Audience: []string{"https://api.example.com"},
//	})
//	...
//	mux.Handle("DELETE /projects/{id}", v.RequireScope("project:delete")(deleteProject))
//	http.ListenAndServe(":8080", v.Middleware(mux))
//
// and read the token in a handler with FromContext. The checks, in order:
//
//   - The token comes in the Authorization header (RFC 6750 §2.1); one in
//     the query string is refused.
//   - A JWT's alg is one of Config.Algorithms (asymmetric only; never none
//     or HMAC), its typ is at+jwt (RFC 9068 §4), its iss, aud, exp, nbf and
//     iat are right, and then its signature verifies with a key of the
//     issuer's JWKS, found by kid. The JWKS is discovered from the issuer's
//     metadata (which must name the issuer, and under an https issuer
//     only https endpoints) unless Config.JWKSURL names it; it is cached for its
//     Cache-Control max-age (within bounds), refetched for an unknown kid
//     at most once per Config.RefetchInterval, never taken from a redirect
//     nor beyond Config.MaxResponseBytes.
//   - A token that is not a JWT goes, when Config.Introspection is set, to
//     the issuer's RFC 7662 introspection endpoint. An answer that names no
//     issuer or audience is taken as the issuer's word for this resource
//     server, which authenticated to ask.
//   - A token bound to a key (cnf.jkt) needs a DPoP proof by that key for
//     this request (RFC 9449), each proof accepted once.
//
// Verified tokens are cached by a hash of their exact text until their
// exp, and only while the current JWKS still holds their key; introspection
// answers no longer than Introspection.MaxCacheAge.
//
// Failures are errors matching the sentinels of this package with
// errors.Is (ErrExpired, ErrAudience, ErrDPoPReplay...); the middleware
// answers them as RFC 6750 §3 says: 401 with a WWW-Authenticate challenge
// for a bad token, 403 insufficient_scope for a missing scope, 400
// invalid_request for a malformed request, and 503 when the issuer cannot
// be reached.
package bearer
