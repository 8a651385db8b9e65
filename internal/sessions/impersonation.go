package sessions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
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
// It ends at the next request when the user is banned or deleted
// meanwhile, when the administrator stops being one, or when the user
// becomes one: an administrator is never impersonated, and only an
// administrator impersonates.

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
	// Admins is the feature's configuration, which names administrators
	// besides the stored role (admin.IsAdmin).
	Admins *admin.Config
}

// ReadImpersonations returns the reading of impersonations of the
// feature configured by c, for Config.Impersonations.
func ReadImpersonations(c *admin.Config) Impersonations {
	return Impersonations{Read: (*Manager).impersonated, User: (*Manager).ImpersonatedUser, Admins: c}
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

// holding returns r's impersonation when it has one for the signed-in
// user adminID that still holds (holds), with the impersonated user; ok
// is false otherwise. A store that cannot be read is an error, never the
// impersonation.
func (m *Manager) holding(ctx context.Context, r *http.Request, b *site.Base, adminID string) (i Impersonation, u adapter.User, ok bool, err error) {
	i, ok = m.impersonating(r, b)
	if !ok || i.Admin != adminID {
		return Impersonation{}, adapter.User{}, false, nil
	}
	u, ok, err = m.holds(ctx, i)
	return i, u, ok, err
}

// holds reports whether the impersonation i, found good for its
// administrator's session, still holds: the administrator is still one,
// and the user exists, is not banned and is not an administrator. The
// routes check all of it when it starts, but a role or a ban can change
// during it, and the admin routes' door only guards the admin routes. u
// is the user when it holds.
//
// It reads the store (four reads at most), so it is asked only of
// requests that carry an impersonation cookie.
func (m *Manager) holds(ctx context.Context, i Impersonation) (u adapter.User, ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	admins := m.cfg.Impersonations.Admins
	isAdmin, err := admin.ReadIsAdmin(ctx, admins, m.cfg.Adapter, m.cfg.Admin, i.Admin)
	switch {
	case err != nil:
		return adapter.User{}, false, fmt.Errorf("%w: %w", ErrStoreUnavailable, err)
	case !isAdmin: // demoted (or deleted) meanwhile
		return adapter.User{}, false, nil
	}
	st, err := m.cfg.Admin.UserStatus(ctx, i.User)
	if err == nil {
		u, err = m.cfg.Adapter.GetUser(ctx, i.User)
	}
	switch {
	case errors.Is(err, adapter.ErrNotFound): // deleted meanwhile
		return adapter.User{}, false, nil
	case err != nil:
		return adapter.User{}, false, fmt.Errorf("%w: %w", ErrStoreUnavailable, err)
	}
	now := time.Now() // the user's own revocations do not concern it: bans do
	if st.Refuses(now, now) || admin.IsAdmin(admins, u, st) {
		return adapter.User{}, false, nil
	}
	return u, true, nil
}

// impersonated returns, for the session s read from r's cookie, the
// session of the user an impersonation names, when r has one that is
// good (bound to this session, of this administrator, not expired) and
// still holds (holds). Otherwise s, with a stale impersonation cookie
// cleared.
func (m *Manager) impersonated(w http.ResponseWriter, r *http.Request, b *site.Base, s *session.Session) (*session.Session, error) {
	name := m.impersonationCookie(b)
	if cookies.Value(r, name) == "" {
		return s, nil
	}
	i, u, ok, err := m.holding(r.Context(), r, b, s.User.ID)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		b.Cookies.Clear(w, name)
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
	i, _, ok, err := m.holding(ctx, r, b, id)
	switch {
	case err != nil:
		return "", false, err
	case !ok: // none, or one that no longer holds: Read shows the administrator's own session
		return id, false, nil
	}
	return i.User, true, nil
}

// ImpersonatedUser names the user r's administrator sees the site as
// (their name, else their address, else their id), for the built-in
// pages' banner: as Read decides it, so false when r has no
// impersonation that holds, when the store cannot be read, or when bans
// are off.
func (m *Manager) ImpersonatedUser(r *http.Request, b *site.Base) (string, bool) {
	if m.cfg.Admin == nil {
		return "", false
	}
	if _, ok := m.impersonating(r, b); !ok { // most pages: no store read
		return "", false
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, _, err := m.Current(ctx, r, b)
	if err != nil || id == "" {
		return "", false
	}
	_, u, ok, err := m.holding(ctx, r, b, id)
	if err != nil || !ok {
		return "", false
	}
	return cmp.Or(u.Name, u.Email, u.ID), true
}
