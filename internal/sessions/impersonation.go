package sessions

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/session"
)

// Impersonation: an administrator sees the application as another user
// (package admin). It is a sealed cookie laid over the administrator's
// own session, which stays as it was:
//
//   - it names the administrator and the user, and ends at its Expires
//     (at most admin.Config.ImpersonationMaxAge after it began) whatever
//     the browser does: it is never renewed;
//   - it is bound to the administrator's session in this browser
//     (Binding): carried to another browser, or kept after signing out
//     or in again, it is ignored;
//   - it applies to what the application sees (Read: the Middleware,
//     Require, GET {base}/session, which shows impersonatedBy; Viewer:
//     Handler.Can and RequirePermission), never to
//     Gatehouse's own account and admin routes nor to sign-ins (Current),
//     so no account can be linked to the user and no setting of theirs
//     changed through it;
//   - it works in no organization: the administrator's active
//     organization (their session's) is never the impersonated one's,
//     which has none, so no permission of the administrator's in it is
//     lent to what the application shows as the user;
//   - stopping it is clearing it: the administrator's session is back,
//     with its active organization.
//
// A user who is banned or deleted meanwhile ends it at the next request.

// Impersonations is how a Manager reads impersonations: what
// ReadImpersonations returns, which only the administrators' feature
// (package admin, Config.Admin) asks for, so that a program without it
// links none of the reading.
type Impersonations struct {
	// Read returns the session r shows: its own session s or, during an
	// impersonation that holds, the impersonated user's.
	Read func(m *Manager, w http.ResponseWriter, r *http.Request, b *site.Base, s *session.Session) (*session.Session, error)
	// User is Manager.ImpersonatedUser: the built-in pages' banner.
	User func(m *Manager, r *http.Request, b *site.Base) (string, bool)
}

// ReadImpersonations returns the reading of impersonations, for
// Config.Impersonations.
func ReadImpersonations() Impersonations {
	return Impersonations{Read: (*Manager).impersonated, User: (*Manager).ImpersonatedUser}
}

// Impersonation is the content of the impersonation cookie.
type Impersonation struct {
	Admin   string `json:"a"`
	User    string `json:"u"`
	Expires int64  `json:"e"` // Unix seconds
	Binding string `json:"b"` // Manager.Binding of the administrator's session
}

// impersonationCodecs are the impersonation cookie's codecs by secure
// mode, made on first use (only sites with Config.Admin need them).
type impersonationCodecs struct {
	once   sync.Once
	codecs map[bool]*cookies.Codec[Impersonation]
	names  map[bool]string
	err    error
}

// impersonationCookie is the cookie's name beside the others of b (made
// once: the session read asks on every request).
func (m *Manager) impersonationCookie(b *site.Base) string {
	m.impersonationCodec(b)
	return m.impersonation.names[b.Cookies.Secure]
}

// impersonationCodec returns the codec for b's cookies.
func (m *Manager) impersonationCodec(b *site.Base) (*cookies.Codec[Impersonation], error) {
	ic := &m.impersonation
	ic.once.Do(func() {
		ic.codecs = map[bool]*cookies.Codec[Impersonation]{}
		ic.names = map[bool]string{}
		for _, secure := range []bool{false, true} {
			name := strings.TrimSuffix(cookies.NewNames(secure, m.cfg.AuthJSNames).SessionData, "session-data") + "impersonation"
			ic.names[secure] = name
			c, err := cookies.NewCodec(m.cfg.Secret, name, 0,
				func(i Impersonation) (time.Time, bool) {
					return time.Unix(i.Expires, 0), i.Admin != "" && i.User != "" && i.Binding != ""
				},
				func(i Impersonation) Impersonation { return i })
			if err != nil {
				ic.err = err
				return
			}
			ic.codecs[secure] = c
		}
	})
	return ic.codecs[b.Cookies.Secure], ic.err
}

// ErrNotImpersonating: StopImpersonating found no impersonation.
var ErrNotImpersonating = errors.New("gatehouse: not impersonating")

// StartImpersonation makes this browser, whose session is the
// administrator adminID's, see the application as userID until expires.
func (m *Manager) StartImpersonation(w http.ResponseWriter, r *http.Request, b *site.Base, adminID, userID string, expires time.Time) error {
	c, err := m.impersonationCodec(b)
	if err != nil {
		return err
	}
	sealed, err := c.Encode(Impersonation{Admin: adminID, User: userID, Expires: expires.Unix(), Binding: m.Binding(r, b)})
	if err != nil {
		return err
	}
	b.Cookies.Set(w, m.impersonationCookie(b), sealed, expires)
	return nil
}

// StopImpersonating ends this browser's impersonation and returns it
// (ErrNotImpersonating for none, or one not this session's).
func (m *Manager) StopImpersonating(w http.ResponseWriter, r *http.Request, b *site.Base) (Impersonation, error) {
	i, ok := m.impersonating(r, b)
	if cookies.Value(r, m.impersonationCookie(b)) != "" {
		b.Cookies.Clear(w, m.impersonationCookie(b))
	}
	if !ok {
		return Impersonation{}, ErrNotImpersonating
	}
	return i, nil
}

// impersonating returns r's impersonation when it has a good one for the
// session it holds (not checked: that the session is the administrator's).
func (m *Manager) impersonating(r *http.Request, b *site.Base) (Impersonation, bool) {
	raw := cookies.Value(r, m.impersonationCookie(b))
	if raw == "" {
		return Impersonation{}, false
	}
	c, err := m.impersonationCodec(b)
	if err != nil {
		return Impersonation{}, false
	}
	i, err := c.Decode(raw, time.Now())
	// Both sides are this server's (the binding is sealed in the cookie):
	// a plain comparison.
	if err != nil || i.Binding != m.Binding(r, b) {
		return Impersonation{}, false
	}
	return i, true
}

// impersonated returns, for the session s read from r's cookie, the
// session of the user an impersonation names, when r has one that is
// good: bound to this session, of this administrator, not expired, of a
// user who exists and is not banned. Otherwise s, with a stale
// impersonation cookie cleared.
func (m *Manager) impersonated(w http.ResponseWriter, r *http.Request, b *site.Base, s *session.Session) (*session.Session, error) {
	name := m.impersonationCookie(b)
	if cookies.Value(r, name) == "" {
		return s, nil
	}
	i, ok := m.impersonating(r, b)
	if !ok || i.Admin != s.User.ID {
		b.Cookies.Clear(w, name)
		return s, nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	now := time.Now() // the user's own revocations do not concern it: bans and deletion do
	if refuse, err := m.refuses(ctx, i.User, now, now); err != nil || refuse {
		if refuse {
			b.Cookies.Clear(w, name)
			return s, nil
		}
		return nil, err
	}
	u, err := m.cfg.Adapter.GetUser(ctx, i.User)
	if err != nil {
		b.Cookies.Clear(w, name) // deleted meanwhile: refuses said so
		return s, nil
	}
	out := &session.Session{User: accountlink.ToProfile(u), Expires: time.Unix(i.Expires, 0), ImpersonatedBy: i.Admin}
	return m.shape(r.Context(), out, nil, &u), nil
}

// Viewer returns the id of the user the application sees on r, as Read
// decides it: during an impersonation that holds, the impersonated user's
// (impersonated is then true), else the signed-in user's (Current), ""
// for none. It writes no cookie. Permission checks ask it (Handler.Can),
// so that they judge the user the application shows, never the
// administrator behind an impersonation.
func (m *Manager) Viewer(ctx context.Context, r *http.Request, b *site.Base) (id string, impersonated bool, err error) {
	id, _, err = m.Current(ctx, r, b)
	if err != nil || id == "" || m.cfg.Admin == nil {
		return id, false, err
	}
	i, ok := m.impersonating(r, b)
	if !ok || i.Admin != id {
		return id, false, nil
	}
	now := time.Now()
	switch refuse, err := m.refuses(ctx, i.User, now, now); {
	case err != nil:
		return "", false, err
	case refuse: // banned or deleted: Read shows the administrator's own session
		return id, false, nil
	}
	return i.User, true, nil
}

// ImpersonatedUser names the user r's administrator sees the site as
// (their name, else their address, else their id), for the built-in
// pages' banner; false when r is no impersonation or bans are off.
func (m *Manager) ImpersonatedUser(r *http.Request, b *site.Base) (string, bool) {
	if m.cfg.Admin == nil {
		return "", false
	}
	i, ok := m.impersonating(r, b)
	if !ok {
		return "", false
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	u, err := m.cfg.Adapter.GetUser(ctx, i.User)
	if err != nil {
		return i.User, true
	}
	return cmp.Or(u.Name, u.Email, u.ID), true
}
