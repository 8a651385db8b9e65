package gatehouse

// The per-request hot path: reading one cookie without parsing them all,
// and answering GET {base}/session without encoding JSON on every request.
// See bench_test.go for the numbers.

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

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
		writeJSON(w, http.StatusOK, s)
		return
	}
	hdr := w.Header()
	v := &[4]string{"application/json", "private, no-cache, no-store", "0", "no-cache"}
	hdr["Content-Type"] = v[0:1:1]
	hdr["Cache-Control"] = v[1:2:2]
	hdr["Expires"] = v[2:3:3]
	hdr["Pragma"] = v[3:4:4]
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// route registers fn's routes on r under prefix, as chi's Route would but
// on r itself: a chi subrouter is mounted with a wildcard, which costs
// every request a second routing pass and four allocations.
func route(r chi.Router, prefix string, fn func(under)) { fn(under{r, prefix}) }

// under is a chi.Router's Get and Post with a path prefix.
type under struct {
	r      chi.Router
	prefix string
}

func (u under) Get(pattern string, h http.HandlerFunc)  { u.r.Get(u.prefix+pattern, h) }
func (u under) Post(pattern string, h http.HandlerFunc) { u.r.Post(u.prefix+pattern, h) }
