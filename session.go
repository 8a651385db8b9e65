package gatehouse

// Sessions as the application sees them. Issuing, reading, renewing and
// ending them, for both strategies and the cookie cache, is
// internal/sessions' job (h.sessions); here are the names users know,
// the reuse of the Middleware's read, and Bearer tokens.

import (
	"context"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/session"
)

// Token is the content of a JWT-strategy session cookie: the claims
// Auth.js writes (sub, name, email, picture, iat, exp, jti, plus provider
// and auth_time) and whatever the JWT callback adds in Extra
// (session.Token).
type Token = session.Token

// Session is what the application sees of a signed-in user: GET
// {base}/session answers it as JSON, SessionFrom returns it
// (session.Session).
type Session = session.Session

// JWTParams is what the JWT callback sees (session.JWTParams). User,
// Account and Profile are set only at sign-in (Trigger "signIn" or
// "signUp"); Session only on an update (Trigger "update").
type JWTParams = session.JWTParams

// SessionParams is what the Session callback sees (session.SessionParams).
type SessionParams = session.SessionParams

// ErrStoreUnavailable is SessionErr's answer when the session store (the
// Adapter of the database strategy) could not be read: whether anyone is
// signed in is then unknown. Require answers 503 with Retry-After for
// such a request, and so does GET {base}/session.
var ErrStoreUnavailable = sessions.ErrStoreUnavailable

// readSession returns the session of r's cookie, or nil
// (sessions.Manager.Read).
//
// A request that went through the Middleware has had its session read
// there, or left for its first use (the handler's own routes): that
// result is used again, so a request costs at most one adapter query
// (GET {base}/session inside the Middleware included).
// A session the Middleware took from a Bearer header is not: the auth
// routes answer for the cookie only.
func (h *Handler) readSession(w http.ResponseWriter, r *http.Request, b *base) (*Session, error) {
	return h.readSessionTo(nil, w, r, b)
}

// readSessionTo is readSession, a session read now written into dst when
// not nil (sessions.Manager.ReadTo).
func (h *Handler) readSessionTo(dst *sessions.Buffer, w http.ResponseWriter, r *http.Request, b *base) (*Session, error) {
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h && st.base.Same(b) && !st.bearer {
		st.load(w)
		return st.session, st.storeErr
	}
	return h.sessions.ReadTo(dst, w, r, b)
}

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
	token, ok := cookies.BearerToken(values)
	if !ok {
		return false
	}
	st.bearer = true
	if token != "" {
		st.bearerToken = token
		st.session, st.storeErr = h.sessions.Open(w, r, b, token, false)
	}
	return true
}

// unauthorizedBearer answers a Bearer request without a session on a
// route that needs one: 401 with the challenge of RFC 6750 §3 and
// error="invalid_token" (§3.1), never a redirect to a sign-in page.
func unauthorizedBearer(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="the session token is missing, invalid or expired"`)
	httpx.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
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
	if ok {
		st.load(nil)
	}
	if !ok || st.owner != h || st.session == nil {
		return ""
	}
	if st.bearer {
		return st.bearerToken
	}
	raw, _ := cookies.ReadChunked(r, st.base.Cookies.Session)
	return raw
}

// Sweep deletes expired database sessions and unused e-mail sign-in
// tokens now and then every interval (an hour when interval is zero),
// until ctx ends; then it returns ctx's error. Nothing else deletes them.
// Run it in its own goroutine, in one instance or in all (a pass is one
// DELETE per table):
//
//	go auth.Sweep(ctx, time.Hour)
//
// It returns an error at once when the Adapter cannot sweep (it is not an
// adapter.Sweeper, or there is none). A failed pass is logged and the next
// one tried at the next interval.
func (h *Handler) Sweep(ctx context.Context, interval time.Duration) error {
	sw, ok := h.cfg.Adapter.(adapter.Sweeper)
	if !ok {
		return &ConfigError{Field: "Adapter", Reason: "cannot sweep expired rows: it is not an adapter.Sweeper"}
	}
	if interval <= 0 {
		interval = time.Hour
	}
	return sessions.Sweep(ctx, sw, interval, h.cfg.Logger)
}
