package sessions

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/session"
)

// bodiesMax bounds Manager.bodies: the JSON of sessions already
// answered, keyed by everything that JSON holds, so that GET
// {base}/session encodes a given session once, not on every request.
// Sessions with Extra (a Session callback's additions) are encoded each
// time.
const bodiesMax = 10000

// bodyKey is the content of a Session without Extra.
type bodyKey struct {
	id, name, email, image string
	verified               int64 // UnixNano of EmailVerified, or 0
	hasVerified            bool
	expires                int64 // UnixNano: the JSON holds it in UTC
	org                    string
	impersonatedBy         string
}

func keyOf(s *session.Session) bodyKey {
	k := bodyKey{id: s.User.ID, name: s.User.Name, email: s.User.Email, image: s.User.Image,
		expires: s.Expires.UnixNano(), org: s.ActiveOrganizationID, impersonatedBy: s.ImpersonatedBy}
	if v := s.User.EmailVerified; v != nil {
		k.verified, k.hasVerified = v.UnixNano(), true
	}
	return k
}

// body returns the JSON of s followed by a newline, as httpx.WriteJSON
// writes it, or false for a session it does not cache.
func (m *Manager) body(s *session.Session) ([]byte, bool) {
	if len(s.Extra) != 0 {
		return nil, false
	}
	k := keyOf(s)
	// The entries never expire (a session's expiry is in its key): no
	// clock reading to find one.
	if b, ok := m.bodies.Get(k, time.Time{}); ok {
		return b, true
	}
	b, err := s.MarshalJSON()
	if err != nil {
		return nil, false
	}
	b = append(b, '\n')
	m.bodies.Set(k, b, time.Time{}, time.Now())
	return b, true
}

// WriteJSON answers GET {base}/session for s: 200 with its JSON, or with
// null for no session. The JSON is cached here; the answer is never
// stored anywhere else (httpx.WriteJSON's Cache-Control: no-store).
func (m *Manager) WriteJSON(w http.ResponseWriter, s *session.Session) {
	if s == nil {
		httpx.WriteJSONBytes(w, http.StatusOK, null)
		return
	}
	b, ok := m.body(s)
	if !ok {
		httpx.WriteJSON(w, http.StatusOK, s)
		return
	}
	httpx.WriteJSONBytes(w, http.StatusOK, b)
}

var null = []byte("null\n")

// Update is the body of POST {base}/session.
type Update struct {
	CSRFToken string         `json:"csrfToken"`
	Data      map[string]any `json:"data"`
}

// ReadUpdate reads an update as JSON, or as a form (csrfToken only).
func ReadUpdate(r *http.Request) (Update, error) {
	var u Update
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, httpx.MaxFormBytes)).Decode(&u)
		return u, err
	}
	f, err := httpx.ReadForm(r)
	if err != nil {
		return u, err
	}
	u.CSRFToken = f.Get("csrfToken")
	return u, nil
}

// Update runs an update of sess, the session of r, through the JWT
// callback (JWT strategy: the cookie is sealed anew) and the Session
// callback, and returns what to answer; false when the update is refused
// (a callback failed or ended the session).
func (m *Manager) Update(ctx context.Context, w http.ResponseWriter, r *http.Request, b *site.Base, sess *session.Session, data map[string]any) (*session.Session, bool) {
	if !m.cfg.Database && m.cfg.JWT != nil {
		t, ok := m.Token(r, b)
		if !ok {
			return nil, false
		}
		out, err := m.cfg.JWT(ctx, session.JWTParams{Token: t, Trigger: "update", Session: data})
		if err != nil || out == nil {
			if err != nil {
				m.cfg.Logger.Error("gatehouse: the JWT callback failed on update", "err", err)
			}
			return nil, false
		}
		now := time.Now()
		out.IssuedAt, out.Expires, out.AuthTime = now.Unix(), now.Add(m.cfg.MaxAge).Unix(), t.AuthTime
		if err := m.Rewrite(w, r, b, *out); err != nil {
			return nil, false
		}
		sess = &session.Session{User: out.User(), Expires: time.Unix(out.Expires, 0), ActiveOrganizationID: out.Organization}
	}
	if cb := m.cfg.Session; cb != nil {
		out, err := cb(ctx, session.SessionParams{Session: *sess, NewSession: data, Trigger: "update"})
		if err != nil || out == nil {
			return nil, false
		}
		sess = out
	}
	return sess, true
}
