package gatehouse

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/useragent"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Token is the content of a JWT-strategy session cookie: the claims
// Auth.js writes (sub, name, email, picture, iat, exp, jti) plus whatever
// the JWT callback adds in Extra.
type Token struct {
	Subject  string `json:"sub"`
	Name     string `json:"name,omitempty"`
	Email    string `json:"email,omitempty"`
	Picture  string `json:"picture,omitempty"`
	IssuedAt int64  `json:"iat"`
	Expires  int64  `json:"exp"`
	ID       string `json:"jti"`
	// Provider is the id of the provider the user signed in with.
	Provider string `json:"provider,omitempty"`
	// AuthTime is when the user signed in (OpenID Connect's auth_time):
	// unlike IssuedAt it does not move when the token is renewed, so it
	// tells a fresh session (SessionConfig.FreshAge) from an old one.
	AuthTime int64 `json:"auth_time,omitempty"`
	// Extra holds other claims, written at the top level of the token.
	Extra map[string]any `json:"-"`
}

// user is the signed-in user a token describes.
func (t Token) user() profile.User {
	return profile.User{ID: t.Subject, Name: t.Name, Email: t.Email, Image: t.Picture}
}

func tokenClaim(k string) bool {
	switch k {
	case "sub", "name", "email", "picture", "iat", "exp", "jti", "provider", "auth_time":
		return true
	}
	return false
}

// MarshalJSON writes the claims and Extra as one flat object.
func (t Token) MarshalJSON() ([]byte, error) {
	type plain Token
	std, err := json.Marshal(plain(t))
	if err != nil || len(t.Extra) == 0 {
		return std, err
	}
	all := make(map[string]any, len(t.Extra)+8)
	for k, v := range t.Extra {
		if !tokenClaim(k) {
			all[k] = v
		}
	}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	return json.Marshal(all)
}

// UnmarshalJSON reads the claims, keeping unknown ones in Extra.
func (t *Token) UnmarshalJSON(b []byte) error {
	type plain Token
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = Token(p)
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if tokenClaim(k) {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		t.Extra[k] = x
	}
	return nil
}

// Session is what the application sees of a signed-in user: GET
// {base}/session answers it as JSON, SessionFrom returns it.
type Session struct {
	User    profile.User `json:"user"`
	Expires time.Time    `json:"expires"`
	// Extra holds what the Session callback adds, written at the top
	// level of the JSON.
	Extra map[string]any `json:"-"`
}

// MarshalJSON writes user, expires (ISO 8601) and Extra as one object.
func (s Session) MarshalJSON() ([]byte, error) {
	all := make(map[string]any, len(s.Extra)+2)
	maps.Copy(all, s.Extra)
	all["user"] = s.User
	all["expires"] = s.Expires.UTC().Format(time.RFC3339Nano)
	return json.Marshal(all)
}

// issueSession writes a new session for user: a new token every time, so a
// session id is never carried across a sign-in (ASVS 7.2.4).
func (h *Handler) issueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, b *base, user profile.User, res signin.Result, isNew bool) error {
	now := time.Now()
	expires := now.Add(h.cfg.Session.MaxAge)
	prov := res.Account.Provider
	if h.cfg.Session.Strategy == StrategyDatabase {
		if old, _ := sessioncookie.ReadChunked(r, b.Cookies.Session); old != "" {
			_, _ = h.cfg.Adapter.DeleteSession(ctx, hashToken(old))
		}
		raw := randomToken()
		// The provider and its session id (the ID token's sid, verified),
		// for back-channel logout by sid (logout.go).
		sess := adapter.Session{Token: hashToken(raw), UserID: user.ID, Expires: expires, Provider: prov,
			SID: res.ProviderSID(), CreatedAt: now, UserAgent: useragent.Describe(r.UserAgent())}
		if _, err := h.cfg.Adapter.CreateSession(ctx, sess); err != nil {
			return autherr.New(AdapterError, "adapter", prov, "session", err)
		}
		b.Cookies.WriteChunked(w, r, b.Cookies.Session, raw, expires)
		h.clearCookieCache(w, r, b) // a copy of the session this one replaces
		return nil
	}
	tok := Token{Subject: user.ID, Name: user.Name, Email: user.Email, Picture: user.Image,
		IssuedAt: now.Unix(), Expires: expires.Unix(), ID: randomHex(16), Provider: prov, AuthTime: now.Unix()}
	if cb := h.cfg.Callbacks.JWT; cb != nil {
		trigger := "signIn"
		if isNew {
			trigger = "signUp"
		}
		out, err := cb(ctx, JWTParams{Token: tok, User: &user, Account: res.Account, Profile: res.Profile, Trigger: trigger, IsNewUser: isNew})
		if err != nil {
			return autherr.Wrap(err, CallbackRouteError, "jwt_callback", prov, "jwt callback")
		}
		if out == nil {
			return autherr.New(AccessDenied, "jwt_callback", prov, "jwt callback", errors.New("the JWT callback returned no token"))
		}
		tok = *out
		tok.IssuedAt, tok.Expires, tok.AuthTime = now.Unix(), expires.Unix(), now.Unix()
	}
	sealed, err := h.sessions[b.Cookies.Secure].Encode(tok)
	if err != nil {
		return autherr.New(Configuration, "seal", prov, "session", err)
	}
	b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, expires)
	return nil
}

// hashToken is how database session tokens are stored: a leaked table
// gives no usable session.
func hashToken(t string) string {
	var h [2 * sha256.Size]byte
	hashTokenTo(&h, t)
	return string(h[:])
}

// hashTokenTo writes hashToken(t) into dst, for the session read, which
// compares it with the cookie cache's before it needs a string.
func hashTokenTo(dst *[2 * sha256.Size]byte, t string) {
	// Through a buffer on the stack: []byte(t) of a token would be an
	// allocation on every database session read.
	var in [256]byte
	var sum [sha256.Size]byte
	if len(t) <= len(in) {
		sum = sha256.Sum256(in[:copy(in[:], t)])
	} else {
		sum = sha256.Sum256([]byte(t))
	}
	hex.Encode(dst[:], sum[:])
}

// readSession returns the session of r's cookie, or nil. An unreadable,
// expired or unknown session clears the cookie. The session's expiry is
// pushed forward at most once per UpdateAge, not on every request.
//
// A request that went through the Middleware has had its session read
// there: that result is used again, so a request costs at most one
// adapter query (GET {base}/session inside the Middleware included).
// A session the Middleware took from a Bearer header is not: the auth
// routes answer for the cookie only.
//
// The error is ErrStoreUnavailable when the database could not be read:
// the session is then unknown, not absent.
func (h *Handler) readSession(w http.ResponseWriter, r *http.Request, b *base) (*Session, error) {
	if st, ok := r.Context().Value(ctxKey{}).(*reqState); ok && st.owner == h && st.base.Same(b) && !st.bearer {
		return st.session, st.storeErr
	}
	raw := sessioncookie.ChunkedValue(r, b.Cookies.Session)
	if raw == "" {
		if sessioncookie.Count(r, b.Cookies.Session) > 1 {
			h.site.WarnDuplicate(r)
		}
		return nil, nil
	}
	return h.openSession(w, r, b, raw, true)
}

// openSession returns the session the token raw stands for, or nil. With
// cookie false (a Bearer token) no cookie is cleared or rewritten.
func (h *Handler) openSession(w http.ResponseWriter, r *http.Request, b *base, raw string, cookie bool) (*Session, error) {
	now := time.Now()
	maxAge, updateAge := h.cfg.Session.MaxAge, h.cfg.Session.UpdateAge
	if h.cfg.Session.Strategy == StrategyDatabase {
		var hashed [2 * sha256.Size]byte
		hashTokenTo(&hashed, raw)
		if cookie && h.cookieCache != nil {
			if s, ok := h.cachedSession(r, b, hashed[:], now); ok {
				return s, nil // no database trip (SessionConfig.CookieCache)
			}
		}
		tokenHash := string(hashed[:])
		ctx, cancel := withTimeout(r.Context())
		defer cancel()
		s, u, err := h.cfg.Adapter.GetSessionAndUser(ctx, tokenHash)
		if err != nil {
			if errors.Is(err, adapter.ErrNotFound) {
				if cookie {
					b.Cookies.ClearChunked(w, r, b.Cookies.Session)
					h.clearCookieCache(w, r, b)
				}
				return nil, nil
			}
			h.cfg.Logger.Error("gatehouse: reading a database session failed", "step", "session", "err", err)
			return nil, fmt.Errorf("%w: %w", ErrStoreUnavailable, err)
		}
		if now.After(s.Expires) {
			_, _ = h.cfg.Adapter.DeleteSession(ctx, s.Token)
			if cookie {
				b.Cookies.ClearChunked(w, r, b.Cookies.Session)
				h.clearCookieCache(w, r, b)
			}
			return nil, nil
		}
		if s.Expires.Add(-maxAge).Add(updateAge).Before(now) {
			if ns, err := h.cfg.Adapter.UpdateSession(ctx, s.Token, now.Add(maxAge)); err == nil {
				s = ns
				if cookie {
					b.Cookies.WriteChunked(w, r, b.Cookies.Session, raw, s.Expires)
				}
			}
		}
		if cookie && h.cookieCache != nil {
			h.cacheSession(w, b, tokenHash, u, s.Expires, now)
		}
		sess := &Session{User: accountlink.ToProfile(u), Expires: s.Expires}
		return h.shapeSession(r.Context(), sess, nil, &u), nil
	}
	codec := h.sessions[b.Cookies.Secure]
	t, err := codec.Decode(raw, now)
	if err != nil {
		if cookie {
			b.Cookies.ClearChunked(w, r, b.Cookies.Session)
		}
		return nil, nil
	}
	// A Bearer token is not rewritten: the caller holds the cookie's
	// token and the front end keeps it fresh.
	if cookie && time.Unix(t.IssuedAt, 0).Add(updateAge).Before(now) {
		t.IssuedAt, t.Expires = now.Unix(), now.Add(maxAge).Unix()
		if sealed, err := codec.Encode(t); err == nil {
			b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, time.Unix(t.Expires, 0))
		}
	}
	sess := &Session{User: t.user(), Expires: time.Unix(t.Expires, 0)}
	if h.cfg.Callbacks.Session == nil {
		return sess, nil // t stays on the stack
	}
	tc := t
	return h.shapeSession(r.Context(), sess, &tc, nil), nil
}

func (h *Handler) shapeSession(ctx context.Context, s *Session, t *Token, u *adapter.User) *Session {
	cb := h.cfg.Callbacks.Session
	if cb == nil {
		return s
	}
	out, err := cb(ctx, SessionParams{Session: *s, Token: t, User: u})
	if err != nil || out == nil {
		if err != nil {
			h.cfg.Logger.Error("gatehouse: the Session callback failed", "err", err)
		}
		return nil
	}
	return out
}

// cachedSession returns the session of the cookie cache, when it holds a
// fresh copy of the session whose token hashes to tokenHash: a copy made
// for another session token (an earlier sign-in, a planted cookie) is not
// used.
func (h *Handler) cachedSession(r *http.Request, b *base, tokenHash []byte, now time.Time) (*Session, bool) {
	raw := sessioncookie.Value(r, b.Cookies.SessionData)
	if raw == "" {
		return nil, false
	}
	c, err := h.cookieCache[b.Cookies.Secure].Decode(raw, now)
	// A plain comparison: both sides come from this browser's own cookies
	// (the copy is sealed, so only this server made it), and no secret of
	// anyone else's is compared.
	if err != nil || c.Token != string(tokenHash) {
		return nil, false
	}
	sess := &Session{User: accountlink.ToProfile(c.User), Expires: time.Unix(c.Expires, 0)}
	if h.cfg.Callbacks.Session == nil {
		return sess, true // c stays on the stack
	}
	u := c.User
	return h.shapeSession(r.Context(), sess, nil, &u), true
}

// cacheSession writes the cookie cache's copy of a session just read from
// the database.
func (h *Handler) cacheSession(w http.ResponseWriter, b *base, tokenHash string, u adapter.User, expires, now time.Time) {
	sealed, err := h.cookieCache[b.Cookies.Secure].Encode(sessioncookie.Cached{Token: tokenHash, User: u, Expires: expires.Unix(), CachedAt: now.UnixMilli()})
	if err != nil {
		return // the next request reads the database again
	}
	until := now.Add(h.cfg.Session.CookieCache.MaxAge)
	if expires.Before(until) {
		until = expires
	}
	b.Cookies.Set(w, b.Cookies.SessionData, sealed, until)
}

// clearCookieCache clears the cookie cache's copy, when r has one.
func (h *Handler) clearCookieCache(w http.ResponseWriter, r *http.Request, b *base) {
	if sessioncookie.Value(r, b.Cookies.SessionData) != "" {
		b.Cookies.Clear(w, b.Cookies.SessionData)
	}
}

// withTimeout is a small helper for adapter calls made on the hot path.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, httpx.StoreTimeout)
}

// sessionCodec seals and opens the session cookie's Token
// (internal/sessioncookie): one per secure mode, since the cookie's name
// is the key derivation's salt.
type sessionCodec = sessioncookie.Codec[Token]

func newSessionCodec(secrets []string, cookie string) (*sessionCodec, error) {
	return sessioncookie.NewCodec(secrets, cookie, sessioncookie.ClockTolerance,
		// A token with no subject is not a session (a check cookie pasted
		// into the session slot would look so, CVE-2023-48309).
		func(t Token) (time.Time, bool) { return time.Unix(t.Expires, 0), t.Subject != "" && t.Expires != 0 },
		// Extra is shared with the codec's cache: hand out a copy.
		func(t Token) Token { t.Extra = maps.Clone(t.Extra); return t })
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomToken() string { return randomHex(32) }

// sessionBodiesMax bounds Handler.bodies: the JSON of sessions already
// answered, keyed by everything that JSON holds, so that GET
// {base}/session encodes a given session once, not on every request.
// Sessions with Extra (a Session callback's additions) are encoded each
// time.
const sessionBodiesMax = 10000

// sessionKey is the content of a Session without Extra.
type sessionKey struct {
	id, name, email, image string
	verified               int64 // UnixNano of EmailVerified, or 0
	hasVerified            bool
	expires                int64 // UnixNano: the JSON holds it in UTC
}

func keyOf(s *Session) sessionKey {
	k := sessionKey{id: s.User.ID, name: s.User.Name, email: s.User.Email, image: s.User.Image,
		expires: s.Expires.UnixNano()}
	if v := s.User.EmailVerified; v != nil {
		k.verified, k.hasVerified = v.UnixNano(), true
	}
	return k
}

// sessionBody returns the JSON of s followed by a newline, as writeJSON
// writes it, or false for a session it does not cache.
func (h *Handler) sessionBody(s *Session) ([]byte, bool) {
	if len(s.Extra) != 0 {
		return nil, false
	}
	k := keyOf(s)
	now := time.Now()
	if b, ok := h.bodies.Get(k, now); ok {
		return b, true
	}
	b, err := s.MarshalJSON()
	if err != nil {
		return nil, false
	}
	b = append(b, '\n')
	h.bodies.Set(k, b, time.Time{}, now)
	return b, true
}

// writeSessionJSON answers 200 with the session's JSON, from the cache
// when it can. The headers are those of writeJSON plus sessionJSON's,
// set with one allocation for their values.
func (h *Handler) writeSessionJSON(w http.ResponseWriter, s *Session) {
	b, ok := h.sessionBody(s)
	if !ok {
		w.Header().Set("Expires", "0")
		w.Header().Set("Pragma", "no-cache")
		httpx.WriteJSON(w, http.StatusOK, s)
		return
	}
	writeSessionBody(w, b)
}

// writeNoSession answers 200 with null, with writeSessionJSON's headers
// (their values in one allocation): what writeJSON writes for nil, without
// encoding it.
func writeNoSession(w http.ResponseWriter) { writeSessionBody(w, null) }

// writeSessionBody answers 200 with body and the session route's headers,
// their values set with one allocation.
func writeSessionBody(w http.ResponseWriter, body []byte) {
	hdr := w.Header()
	v := &[4]string{"application/json", "private, no-cache, no-store", "0", "no-cache"}
	hdr["Content-Type"] = v[0:1:1]
	hdr["Cache-Control"] = v[1:2:2]
	hdr["Expires"] = v[2:3:3]
	hdr["Pragma"] = v[3:4:4]
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

var null = []byte("null\n")

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
	token, ok := sessioncookie.BearerToken(values)
	if !ok {
		return false
	}
	st.bearer = true
	if token != "" {
		st.bearerToken = token
		st.session, st.storeErr = h.openSession(w, r, b, token, false)
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
	if !ok || st.owner != h || st.session == nil {
		return ""
	}
	if st.bearer {
		return st.bearerToken
	}
	raw, _ := sessioncookie.ReadChunked(r, st.base.Cookies.Session)
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
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		pass, cancel := context.WithTimeout(ctx, time.Minute)
		sessions, tokens, err := sw.DeleteExpired(pass, time.Now())
		cancel()
		if err != nil {
			h.cfg.Logger.Error("gatehouse: sweeping expired rows failed", "step", "sweep", "err", err)
		} else if sessions+tokens > 0 {
			h.cfg.Logger.Info("gatehouse: swept expired rows", "step", "sweep", "sessions", sessions, "tokens", tokens)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
