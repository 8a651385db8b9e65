// Package sessions issues, reads, renews and ends sessions, of both
// strategies: a JWT session lives in its sealed cookie (the Auth.js
// token: internal/cookies), a database session in the Adapter, its
// cookie holding an opaque token whose hash is the row's key. With the
// cookie cache on, a sealed copy of a database session answers reads for
// a few minutes without the database.
//
// A Manager knows nothing of routes or pages: the root package's
// Middleware and routes call it with the request's site (internal/site).
package sessions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/logburst"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/internal/useragent"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/session"
)

// ErrStoreUnavailable is wrapped by a read that could not reach the
// session store (the Adapter of database sessions): whether anyone is
// signed in is then unknown, not "nobody" (gatehouse.ErrStoreUnavailable).
var ErrStoreUnavailable = errors.New("gatehouse: the session store is unavailable")

// Config is what a Manager needs of the handler's configuration.
type Config struct {
	// Database selects the database strategy; the JWT strategy otherwise.
	Database bool
	// MaxAge is a session's life without use; UpdateAge how often its
	// expiry is pushed forward when it is used.
	MaxAge, UpdateAge time.Duration
	// CookieCache is how long a sealed copy of a database session
	// answers reads: zero turns the cookie cache off, and so does an
	// adapter that reads sessions live (adapter.LiveSessions).
	CookieCache time.Duration
	Adapter     adapter.Adapter
	// Secret seals the session cookie (newest first), under the cookie
	// names AuthJSNames chooses.
	Secret      []string
	AuthJSNames bool
	Logger      *slog.Logger
	// JWT and Session are Callbacks.JWT and Callbacks.Session, nil for
	// none.
	JWT     func(ctx context.Context, p session.JWTParams) (*session.Token, error)
	Session func(ctx context.Context, p session.SessionParams) (*session.Session, error)
	// Active returns the active organization of the database session
	// whose token hashes to tokenHash ("" for none); nil when
	// organizations are off. A JWT session holds it in its token. It is
	// asked on a read from the database, not on one the cookie cache
	// answers: the copy holds it.
	Active func(ctx context.Context, tokenHash string) (string, error)
	// Admin, when set, holds the users' bans and session revocations
	// (package admin), which sign-ins and session reads obey (admin.go).
	Admin admin.Store
	// Impersonations, set with Admin, reads administrators'
	// impersonations (impersonation.go); zero, they are not read.
	Impersonations Impersonations
}

// Manager issues and reads sessions. It is safe for concurrent use.
type Manager struct {
	cfg Config
	// The session cookie's codec and the cookie cache's, by secure mode:
	// the cookie's name is the key derivation's salt.
	codecs map[bool]*cookies.Codec[session.Token]
	cache  map[bool]*cookies.Codec[cookies.Cached] // nil: no cookie cache
	// bodies is the JSON of sessions already answered (json.go).
	bodies *bounded.Map[bodyKey, []byte]
	// bursts keeps a store outage to a few log lines: every request
	// fails the same way while it lasts (internal/logburst).
	bursts logburst.Limiter
	// impersonation seals the impersonation cookie (impersonation.go).
	impersonation impersonationCodecs
}

// New returns the Manager of cfg.
func New(cfg Config) (*Manager, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if live, ok := cfg.Adapter.(adapter.LiveSessions); ok && live.LiveSessions() && cfg.CookieCache > 0 {
		// Sessions in Redis: reading them costs a round trip, and a copy
		// in a cookie would let an ended session live on for MaxAge.
		cfg.Logger.Info("gatehouse: the cookie cache is off: the adapter reads sessions live, so a session ended on one instance is refused by all at once")
		cfg.CookieCache = 0
	}
	m := &Manager{cfg: cfg, codecs: map[bool]*cookies.Codec[session.Token]{}, bodies: bounded.New[bodyKey, []byte](bodiesMax)}
	for _, secure := range []bool{false, true} {
		c, err := NewCodec(cfg.Secret, cookies.NewNames(secure, cfg.AuthJSNames).Session)
		if err != nil {
			return nil, err
		}
		m.codecs[secure] = c
	}
	if cfg.CookieCache > 0 {
		m.cache = map[bool]*cookies.Codec[cookies.Cached]{}
		for _, secure := range []bool{false, true} {
			c, err := cookies.NewCacheCodec(cfg.Secret, cookies.NewNames(secure, cfg.AuthJSNames).SessionData, cfg.CookieCache)
			if err != nil {
				return nil, err
			}
			m.cache[secure] = c
		}
	}
	return m, nil
}

// NewCodec returns the codec of the session cookie named cookie.
func NewCodec(secrets []string, cookie string) (*cookies.Codec[session.Token], error) {
	return cookies.NewCodec(secrets, cookie, cookies.ClockTolerance,
		// A token with no subject is not a session (a check cookie pasted
		// into the session slot would look so, CVE-2023-48309).
		func(t session.Token) (time.Time, bool) {
			return time.Unix(t.Expires, 0), t.Subject != "" && t.Expires != 0
		},
		// Extra is shared with the codec's cache: hand out a copy.
		func(t session.Token) session.Token { t.Extra = maps.Clone(t.Extra); return t })
}

// Issue writes a new session for user: a new token every time, so a
// session id is never carried across a sign-in (ASVS 7.2.4).
func (m *Manager) Issue(ctx context.Context, w http.ResponseWriter, r *http.Request, b *site.Base, user profile.User, res signin.Result, isNew bool) error {
	now := time.Now()
	expires := now.Add(m.cfg.MaxAge)
	prov := res.Account.Provider
	// A revocation refuses the sessions begun before it (admin.go): this
	// one begins when its sign-in did, which for a sign-in finished after
	// its second factor is minutes ago, not now.
	began := res.Began
	if began.IsZero() {
		began = now
	}
	if err := m.admit(ctx, user.ID, prov, began); err != nil {
		return err
	}
	if m.cfg.Database {
		if old, _ := cookies.ReadChunked(r, b.Cookies.Session); old != "" {
			_, _ = m.cfg.Adapter.DeleteSession(ctx, HashToken(old))
		}
		raw := RandomToken()
		// The provider and its session id (the ID token's sid, verified),
		// for back-channel logout by sid (internal/backchannel).
		sess := adapter.Session{Token: HashToken(raw), UserID: user.ID, Expires: expires, Provider: prov,
			SID: res.ProviderSID(), CreatedAt: now, UserAgent: useragent.Describe(r.UserAgent())}
		if _, err := m.cfg.Adapter.CreateSession(ctx, sess); err != nil {
			return autherr.New(autherr.AdapterError, "adapter", prov, "session", err)
		}
		// A ban or revocation stored while the session was being made ends
		// it here: it deletes the sessions after it is stored, which may
		// have been before this row existed (admin.go).
		if err := m.admit(ctx, user.ID, prov, began); err != nil {
			_, _ = m.cfg.Adapter.DeleteSession(ctx, sess.Token)
			return err
		}
		b.Cookies.WriteChunked(w, r, b.Cookies.Session, raw, expires)
		m.clearCache(w, r, b) // a copy of the session this one replaces
		return nil
	}
	tok := session.Token{Subject: user.ID, Name: user.Name, Email: user.Email, Picture: user.Image,
		IssuedAt: now.Unix(), Expires: expires.Unix(), ID: randomHex(16), Provider: prov, AuthTime: now.Unix()}
	if cb := m.cfg.JWT; cb != nil {
		trigger := "signIn"
		if isNew {
			trigger = "signUp"
		}
		out, err := cb(ctx, session.JWTParams{Token: tok, User: &user, Account: res.Account, Profile: res.Profile, Trigger: trigger, IsNewUser: isNew})
		if err != nil {
			return autherr.Wrap(err, autherr.CallbackRouteError, "jwt_callback", prov, "jwt callback")
		}
		if out == nil {
			return autherr.New(autherr.AccessDenied, "jwt_callback", prov, "jwt callback", errors.New("the JWT callback returned no token"))
		}
		tok = *out
		tok.IssuedAt, tok.Expires, tok.AuthTime = now.Unix(), expires.Unix(), now.Unix()
	}
	if m.cfg.Admin != nil {
		// For revocations (admin.go): when the sign-in began, so that one
		// stored after the check above refuses this token at its next
		// read. AuthTime stays the time of the last factor, for freshness.
		tok.AuthTimeMicro = began.UnixMicro()
	}
	sealed, err := m.codecs[b.Cookies.Secure].Encode(tok)
	if err != nil {
		return autherr.New(autherr.Configuration, "seal", prov, "session", err)
	}
	b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, expires)
	return nil
}

// Read returns the session of r's cookie, or nil. An unreadable, expired
// or unknown session clears the cookie. The session's expiry is pushed
// forward at most once per UpdateAge, not on every request.
//
// The error wraps ErrStoreUnavailable when the database could not be
// read: the session is then unknown, not absent.
func (m *Manager) Read(w http.ResponseWriter, r *http.Request, b *site.Base) (*session.Session, error) {
	return m.ReadTo(nil, w, r, b)
}

// Buffer is storage of the caller's for a session read (ReadTo): the
// session, and the time its user's EmailVerified may point to.
type Buffer struct {
	Session  session.Session
	verified time.Time
}

// ReadTo is Read, the session written into dst when dst is not nil (and
// no Session callback makes one of its own): the Middleware keeps dst in
// the request's state, which saves an allocation per request (two for a
// read the cookie cache answers). dst must be the caller's own, used for
// this request alone.
func (m *Manager) ReadTo(dst *Buffer, w http.ResponseWriter, r *http.Request, b *site.Base) (*session.Session, error) {
	raw := cookies.ChunkedValue(r, b.Cookies.Session)
	if raw == "" {
		if cookies.Count(r, b.Cookies.Session) > 1 {
			site.LogDuplicate(m.cfg.Logger, r, b)
		}
		return nil, nil
	}
	s, err := m.open(dst, w, r, b, raw, true)
	if m.cfg.Admin == nil || m.cfg.Impersonations.Read == nil || s == nil || err != nil {
		return s, err
	}
	return m.cfg.Impersonations.Read(m, w, r, b, s) // impersonation.go
}

// Open returns the session the token raw stands for, or nil. With cookie
// false (a Bearer token) no cookie is cleared or rewritten.
func (m *Manager) Open(w http.ResponseWriter, r *http.Request, b *site.Base, raw string, cookie bool) (*session.Session, error) {
	return m.open(nil, w, r, b, raw, cookie)
}

// newSession returns dst's session set to s, or a new copy of s when dst
// is nil.
func newSession(dst *Buffer, s session.Session) *session.Session {
	if dst == nil {
		p := new(session.Session) // not &s: s would be on the heap either way
		*p = s
		return p
	}
	dst.Session = s
	return &dst.Session
}

// open is Open, writing the session into dst when not nil (ReadTo).
func (m *Manager) open(dst *Buffer, w http.ResponseWriter, r *http.Request, b *site.Base, raw string, cookie bool) (*session.Session, error) {
	now := time.Now()
	maxAge, updateAge := m.cfg.MaxAge, m.cfg.UpdateAge
	if m.cfg.Database {
		var hashed [2 * sha256.Size]byte
		hashTokenTo(&hashed, raw)
		if cookie && m.cache != nil {
			if s, ok := m.cached(dst, r, b, hashed[:], now); ok {
				return s, nil // no database trip (SessionConfig.CookieCache)
			}
		}
		tokenHash := string(hashed[:])
		ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
		defer cancel()
		s, u, err := m.cfg.Adapter.GetSessionAndUser(ctx, tokenHash)
		if err != nil {
			if errors.Is(err, adapter.ErrNotFound) {
				if cookie {
					m.SignOutHere(w, r, b)
				}
				return nil, nil
			}
			m.bursts.Report("read", func(repeats int) {
				args := []any{"step", "session", "err", err}
				if repeats > 0 {
					args = append(args, "repeats", repeats, "window", logburst.DefaultWindow.String())
				}
				m.cfg.Logger.Error("gatehouse: reading a database session failed", args...)
			})
			return nil, fmt.Errorf("%w: %w", ErrStoreUnavailable, err)
		}
		if now.After(s.Expires) {
			_, _ = m.cfg.Adapter.DeleteSession(ctx, s.Token)
			if cookie {
				m.SignOutHere(w, r, b)
			}
			return nil, nil
		}
		if s.Expires.Add(-maxAge).Add(updateAge).Before(now) {
			if ns, err := m.cfg.Adapter.UpdateSession(ctx, s.Token, now.Add(maxAge)); err == nil {
				s = ns
				if cookie {
					b.Cookies.WriteChunked(w, r, b.Cookies.Session, raw, s.Expires)
				}
			}
		}
		org, err := m.active(ctx, tokenHash)
		// A copy is not made of an active organization that could not be
		// read: it would hold "none" for the cache's age.
		if cookie && m.cache != nil && err == nil {
			m.cacheCopy(w, b, cookies.Cached{Token: tokenHash, User: u, Expires: s.Expires.Unix(), CachedAt: now.UnixMilli(), Organization: org})
		}
		sess := newSession(dst, session.Session{User: accountlink.ToProfile(u), Expires: s.Expires, ActiveOrganizationID: org})
		return m.shape(r.Context(), sess, nil, &u), nil
	}
	codec := m.codecs[b.Cookies.Secure]
	t, err := codec.Decode(raw, now)
	if err != nil {
		if cookie {
			b.Cookies.ClearChunked(w, r, b.Cookies.Session)
		}
		return nil, nil
	}
	if refuse, err := m.refuses(r.Context(), t.Subject, signedInAt(t), now); err != nil || refuse {
		if refuse && cookie {
			b.Cookies.ClearChunked(w, r, b.Cookies.Session)
		}
		return nil, err // admin.go
	}
	// A Bearer token is not rewritten: the caller holds the cookie's
	// token and the front end keeps it fresh.
	if cookie && time.Unix(t.IssuedAt, 0).Add(updateAge).Before(now) {
		t.IssuedAt, t.Expires = now.Unix(), now.Add(maxAge).Unix()
		if sealed, err := codec.Encode(t); err == nil {
			b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, time.Unix(t.Expires, 0))
		}
	}
	sess := newSession(dst, session.Session{User: t.User(), Expires: time.Unix(t.Expires, 0), ActiveOrganizationID: t.Organization})
	if m.cfg.Session == nil {
		return sess, nil // t stays on the stack
	}
	tc := t
	return m.shape(r.Context(), sess, &tc, nil), nil
}

// active returns the active organization of the database session whose
// token hashes to tokenHash, "" when organizations are off
// (Config.Active).
func (m *Manager) active(ctx context.Context, tokenHash string) (string, error) {
	if m.cfg.Active == nil {
		return "", nil
	}
	return m.cfg.Active(ctx, tokenHash)
}

// shape runs the Session callback, when there is one. A callback that
// fails ends the session (nil), and is logged.
func (m *Manager) shape(ctx context.Context, s *session.Session, t *session.Token, u *adapter.User) *session.Session {
	cb := m.cfg.Session
	if cb == nil {
		return s
	}
	out, err := cb(ctx, session.SessionParams{Session: *s, Token: t, User: u})
	if err != nil || out == nil {
		if err != nil {
			m.cfg.Logger.Error("gatehouse: the Session callback failed", "err", err)
		}
		return nil
	}
	return out
}

// cached returns the session of the cookie cache, when it holds a fresh
// copy of the session whose token hashes to tokenHash: a copy made for
// another session token (an earlier sign-in, a planted cookie) is not
// used.
func (m *Manager) cached(dst *Buffer, r *http.Request, b *site.Base, tokenHash []byte, now time.Time) (*session.Session, bool) {
	raw := cookies.Value(r, b.Cookies.SessionData)
	if raw == "" {
		return nil, false
	}
	// Shared with the codec's cache: c.User.EmailVerified is copied below
	// before the session is handed on.
	c, err := m.cache[b.Cookies.Secure].DecodeShared(raw, now)
	// A plain comparison: both sides come from this browser's own cookies
	// (the copy is sealed, so only this server made it), and no secret of
	// anyone else's is compared.
	if err != nil || c.Token != string(tokenHash) {
		return nil, false
	}
	// A copy made before a revocation, or of a banned user, is not used:
	// the database says (admin.go).
	if refuse, err := m.refuses(r.Context(), c.User.ID, time.UnixMilli(c.CachedAt), now); err != nil || refuse {
		return nil, false
	}
	user := c.User
	if v := user.EmailVerified; v != nil {
		// The request's own copy of the time, in dst when there is one:
		// the cached one would change for every request if an
		// application wrote through the pointer.
		var t *time.Time
		if dst != nil {
			t = &dst.verified
		} else {
			t = new(time.Time)
		}
		*t = *v
		user.EmailVerified = t
	}
	sess := newSession(dst, session.Session{User: accountlink.ToProfile(user), Expires: time.Unix(c.Expires, 0)})
	if m.cfg.Active != nil {
		// With organizations off, a copy made while they were on names none.
		sess.ActiveOrganizationID = c.Organization
	}
	if m.cfg.Session == nil {
		return sess, true // user stays on the stack
	}
	u := user
	return m.shape(r.Context(), sess, nil, &u), true
}

// cacheCopy writes c as the cookie cache's copy of a session: one just
// read from the database, or a copy re-sealed (Recache).
func (m *Manager) cacheCopy(w http.ResponseWriter, b *site.Base, c cookies.Cached) {
	c.Format = cookies.CacheFormat
	sealed, err := m.cache[b.Cookies.Secure].Encode(c)
	if err != nil {
		return // the next request reads the database again
	}
	until := time.UnixMilli(c.CachedAt).Add(m.cfg.CookieCache)
	if expires := time.Unix(c.Expires, 0); expires.Before(until) {
		until = expires
	}
	b.Cookies.Set(w, b.Cookies.SessionData, sealed, until)
}

// Recache records orgID as the active organization in this browser's
// cookie cache copy, after POST {base}/organizations/active changed it
// in the store: the next read here shows it at once. A fresh copy of
// r's session is re-sealed with its CachedAt kept, so it lives no
// longer than it would have; any other copy is cleared (the next read
// is a miss), as is one written earlier in this same response (a
// Middleware's read before the change): the later Set-Cookie wins
// (RFC 6265 section 5.3, step 11).
func (m *Manager) Recache(w http.ResponseWriter, r *http.Request, b *site.Base, orgID string) {
	if m.cache == nil {
		return
	}
	if raw := cookies.Value(r, b.Cookies.SessionData); raw != "" {
		c, err := m.cache[b.Cookies.Secure].Decode(raw, time.Now())
		if err == nil && c.Token == SessionHash(r, b) {
			c.Organization = orgID
			m.cacheCopy(w, b, c)
			return
		}
	}
	b.Cookies.Clear(w, b.Cookies.SessionData)
}

// clearCache clears the cookie cache's copy, when r has one.
func (m *Manager) clearCache(w http.ResponseWriter, r *http.Request, b *site.Base) {
	if cookies.Value(r, b.Cookies.SessionData) != "" {
		b.Cookies.Clear(w, b.Cookies.SessionData)
	}
}

// SignOutHere clears this browser's session cookie and its cookie cache.
func (m *Manager) SignOutHere(w http.ResponseWriter, r *http.Request, b *site.Base) {
	b.Cookies.ClearChunked(w, r, b.Cookies.Session)
	m.clearCache(w, r, b)
}

// End signs this browser out: its database session deleted (a failure is
// logged: the cookies are cleared all the same), then its cookies.
func (m *Manager) End(w http.ResponseWriter, r *http.Request, b *site.Base) {
	if m.cfg.Database {
		if raw, _ := cookies.ReadChunked(r, b.Cookies.Session); raw != "" {
			ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
			if _, err := m.cfg.Adapter.DeleteSession(ctx, HashToken(raw)); err != nil && !errors.Is(err, adapter.ErrNotFound) {
				m.cfg.Logger.Error("gatehouse: deleting the session failed; its cookie is cleared anyway", "step", "signout", "err", err)
			}
			cancel()
		}
	}
	m.SignOutHere(w, r, b) // the cookie cache at once: this browser is signed out now
}

// Token returns the JWT session token of r's cookie, when it has a good
// one (JWT strategy).
func (m *Manager) Token(r *http.Request, b *site.Base) (session.Token, bool) {
	raw, _ := cookies.ReadChunked(r, b.Cookies.Session)
	if raw == "" {
		return session.Token{}, false
	}
	t, err := m.codecs[b.Cookies.Secure].Decode(raw, time.Now())
	return t, err == nil
}

// Rewrite seals t as r's JWT session cookie.
func (m *Manager) Rewrite(w http.ResponseWriter, r *http.Request, b *site.Base, t session.Token) error {
	sealed, err := m.codecs[b.Cookies.Secure].Encode(t)
	if err != nil {
		return err
	}
	b.Cookies.WriteChunked(w, r, b.Cookies.Session, sealed, time.Unix(t.Expires, 0))
	return nil
}

// Current returns the id of the stored user signed in on r, "" when
// nobody is (no session, an expired or unknown one, or a user who no
// longer exists), and when they signed in: the database session's
// creation, or the JWT's auth_time (zero for a session that does not
// record it: made before the upgrade that added it). A failing adapter is
// an error, not "nobody": linking a new account must not fall back to
// creating a user because the session could not be read.
func (m *Manager) Current(ctx context.Context, r *http.Request, b *site.Base) (string, time.Time, error) {
	if m.cfg.Database {
		raw, _ := cookies.ReadChunked(r, b.Cookies.Session)
		if raw == "" {
			return "", time.Time{}, nil
		}
		s, u, err := m.cfg.Adapter.GetSessionAndUser(ctx, HashToken(raw))
		switch {
		case errors.Is(err, adapter.ErrNotFound):
			return "", time.Time{}, nil
		case err != nil:
			return "", time.Time{}, err
		case time.Now().After(s.Expires):
			return "", time.Time{}, nil
		}
		return u.ID, s.CreatedAt, nil
	}
	t, ok := m.Token(r, b)
	if !ok {
		return "", time.Time{}, nil
	}
	at := time.Time{}
	if t.AuthTime != 0 {
		at = time.Unix(t.AuthTime, 0)
	}
	if m.cfg.Adapter == nil {
		return t.Subject, at, nil
	}
	// JWT strategy with an adapter: the subject is a stored user's id
	// (Auth.js: jwt.decode then getUser).
	u, err := m.cfg.Adapter.GetUser(ctx, t.Subject)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		return "", time.Time{}, nil
	case err != nil:
		return "", time.Time{}, err
	}
	if refuse, err := m.refuses(ctx, u.ID, signedInAt(t), time.Now()); err != nil || refuse {
		return "", time.Time{}, err // admin.go
	}
	return u.ID, at, nil
}

// Binding returns the browser binding of r (checks.Binding): the digest
// of the session its cookie holds (of the token for a database session;
// for a JWT session of its jti and subject, which stay the same when the
// cookie is re-sealed to roll its expiry; nothing is read from the
// database), then of its CSRF cookie. The cookie is taken as it is: a
// forged one cannot pass the CSRF check that every sign-in start makes,
// and its digest matches only the same cookie.
func (m *Manager) Binding(r *http.Request, b *site.Base) string {
	sess := checks.NoSession()
	switch raw := cookies.ChunkedValue(r, b.Cookies.Session); {
	case raw == "":
	case m.cfg.Database:
		sess = checks.DatabaseSession(raw)
	default:
		if t, err := m.codecs[b.Cookies.Secure].Decode(raw, time.Now()); err == nil {
			sess = checks.JWTSession(t.ID, t.Subject)
		}
	}
	return checks.Binding(sess, cookies.Value(r, b.Cookies.CSRF))
}

// Provider returns the provider the session of r came from and the ID
// token it has, when known: with database sessions, the first account of
// the user (in the order of ids) that holds an ID token; with JWT
// sessions, the token's provider, and an ID token only when the JWT
// callback kept one under "id_token".
func (m *Manager) Provider(r *http.Request, b *site.Base, ids []string) (provider, idToken string) {
	if !m.cfg.Database {
		t, _ := m.Token(r, b)
		it, _ := t.Extra["id_token"].(string)
		return t.Provider, it
	}
	raw, _ := cookies.ReadChunked(r, b.Cookies.Session)
	if raw == "" {
		return "", ""
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	_, u, err := m.cfg.Adapter.GetSessionAndUser(ctx, HashToken(raw))
	if err != nil {
		return "", ""
	}
	accts, err := m.cfg.Adapter.ListAccounts(ctx, u.ID)
	if err != nil {
		return "", ""
	}
	for _, id := range ids {
		for _, a := range accts {
			if a.Provider == id && a.IDToken != "" {
				return id, a.IDToken
			}
		}
	}
	return "", ""
}

// SessionHash returns the stored hash of this browser's database session
// token, "" for none.
func SessionHash(r *http.Request, b *site.Base) string {
	raw, _ := cookies.ReadChunked(r, b.Cookies.Session)
	return HashToken(raw)
}

// HashToken is how database session tokens are stored: a leaked table
// gives no usable session.
func HashToken(t string) string {
	var h [2 * sha256.Size]byte
	hashTokenTo(&h, t)
	return string(h[:])
}

// hashTokenTo writes HashToken(t) into dst, for the session read, which
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

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RandomToken returns 32 random bytes in hex: a database session's
// token, or Development mode's secret.
func RandomToken() string { return randomHex(32) }

// Sweep deletes expired rows through sw every interval until ctx ends,
// then returns ctx's error; a failed pass is logged
// (gatehouse.Handler.Sweep).
func Sweep(ctx context.Context, sw adapter.Sweeper, interval time.Duration, logger *slog.Logger) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		pass, cancel := context.WithTimeout(ctx, time.Minute)
		sessions, tokens, err := sw.DeleteExpired(pass, time.Now())
		cancel()
		if err != nil {
			logger.Error("gatehouse: sweeping expired rows failed", "step", "sweep", "err", err)
		} else if sessions+tokens > 0 {
			logger.Info("gatehouse: swept expired rows", "step", "sweep", "sessions", sessions, "tokens", tokens)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
