package gatehouse

import (
	"net/http"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
)

// bearerRequest handles a request that carries an Authorization header
// with the Bearer scheme when Session.Bearer is on (RFC 6750 §2.1): it
// fills st from the token alone and reports true. Other requests, the
// ones a browser sends, report false and are read from their cookies.
//
// The header wins over cookies: a caller that sends a token means that
// token, and a token that does not open is no session, never a fall back
// to the cookie. The Middleware reads and writes no cookie for such a
// request (no CSRF cookie either), and the auth routes, which check CSRF,
// read sessions from cookies only: a Bearer token never satisfies a
// cookie-based CSRF check. Tokens in the query string or the body (RFC 6750 §2.2,
// §2.3) are never looked at: they end up in logs and histories.
func (h *Handler) bearerRequest(w http.ResponseWriter, r *http.Request, b *base, st *reqState) bool {
	values := r.Header["Authorization"] // a map lookup: no allocation for requests without one
	if len(values) == 0 {
		return false
	}
	token, ok := bearerToken(values)
	if !ok {
		return false
	}
	st.bearer = true
	if token != "" {
		st.bearerToken = token
		st.session = h.openSession(w, r, b, token, false)
	}
	return true
}

// bearerToken returns the token of an Authorization header with the Bearer
// scheme, and whether the header uses that scheme at all. A malformed
// token (RFC 6750 §2.1 b64token syntax, or two Authorization headers) is
// returned as "" with ok true: a Bearer request without a session.
func bearerToken(values []string) (token string, ok bool) {
	v := values[0]
	// The scheme is case-insensitive (RFC 9110 §11.1), then one or more
	// spaces. "Bearer" alone (servers trim trailing spaces) has no token.
	const scheme = "bearer "
	if strings.EqualFold(v, scheme[:len(scheme)-1]) {
		return "", true
	}
	if len(v) < len(scheme) || !strings.EqualFold(v[:len(scheme)], scheme) {
		return "", false
	}
	if len(values) > 1 {
		return "", true
	}
	token = strings.TrimLeft(v[len(scheme):], " ")
	if len(token) > sessioncookie.MaxTokenLen || !isB64Token(token) {
		return "", true
	}
	return token, true
}

// isB64Token reports whether s has the b64token syntax of RFC 6750 §2.1:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=". A JWE in
// compact form and an opaque session token both have it.
func isB64Token(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			break
		}
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}

// unauthorizedBearer answers a Bearer request without a session on a
// route that needs one: 401 with the challenge of RFC 6750 §3 and
// error="invalid_token" (§3.1), never a redirect to a sign-in page.
func unauthorizedBearer(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="the session token is missing, invalid or expired"`)
	writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
}

// SessionToken returns the token that carries r's session, as the session
// cookie holds it: the sealed JWE of the JWT strategy (chunks joined), or
// the opaque session token of the database strategy; for a Bearer request
// (Session.Bearer), the token of its header. Send it to an API that
// shares the secret (or the database) as "Authorization: Bearer <token>".
// It returns "" when r has no session. r must have gone through the
// Middleware. The token is a credential: never put it in a URL, a log
// or a page's script.
func (h *Handler) SessionToken(r *http.Request) string {
	st, ok := r.Context().Value(ctxKey{}).(*reqState)
	if !ok || st.owner != h || st.session == nil {
		return ""
	}
	if st.bearer {
		return st.bearerToken
	}
	raw, _ := sessioncookie.ReadChunked(r, st.base.cookies.Session)
	return raw
}
