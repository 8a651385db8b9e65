package selfservice

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// sessionID is how the session routes name a database session: derived
// from its stored hash, so that neither the token nor the hash leaves the
// server.
func sessionID(tokenHash string) string {
	sum := sha256.Sum256([]byte("gatehouse session id\x00" + tokenHash))
	return hex.EncodeToString(sum[:12])
}

// userSessions returns the signed-in user's id and sessions, and the hash
// of this browser's session token, or answers for the session routes
// (pageOwner's answers; 501 for JWT sessions or an adapter that cannot
// list).
func (s *Routes) userSessions(w http.ResponseWriter, r *http.Request) (string, []adapter.Session, string, bool) {
	lister, ok := s.cfg.Adapter.(adapter.SessionLister)
	if !s.cfg.DatabaseSessions || !ok {
		w.Header().Set("Cache-Control", "no-store")
		httpx.WriteJSON(w, http.StatusNotImplemented, map[string]string{"error": string(autherr.Configuration), "code": "not_listable",
			"reason": "JWT sessions live in their cookies and cannot be listed or ended one by one (rotate the secret to end them all); database sessions need an adapter.SessionLister"})
		return "", nil, "", false
	}
	u, ok := s.pageOwner(w, r, "sessions")
	if !ok {
		return "", nil, "", false
	}
	userID := u.id
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	list, err := lister.ListSessions(ctx, userID)
	if err != nil {
		s.cfg.Logger.Error("gatehouse: listing sessions failed", "step", "sessions", "err", err)
		httpx.StoreUnavailable(w)
		return "", nil, "", false
	}
	return userID, list, s.host.SessionHash(r), true
}

// listed is one session in the answer of GET {base}/sessions.
type listed struct {
	ID       string    `json:"id"`
	Provider string    `json:"provider,omitempty"`
	Device   string    `json:"device,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	LastSeen time.Time `json:"lastSeen,omitzero"` // to within Session.UpdateAge
	Expires  time.Time `json:"expires"`
	Current  bool      `json:"current"`
}

// Sessions answers GET {base}/sessions: the signed-in user's live
// sessions, this browser's marked current; a browser gets the built-in
// page, this browser's session first.
func (s *Routes) Sessions(w http.ResponseWriter, r *http.Request) {
	_, list, current, ok := s.userSessions(w, r)
	if !ok {
		return
	}
	now := time.Now()
	out := make([]listed, 0, len(list))
	for _, x := range list {
		if now.After(x.Expires) {
			continue
		}
		out = append(out, listed{ID: sessionID(x.Token), Provider: x.Provider, Device: x.UserAgent,
			Created: x.CreatedAt.UTC(), LastSeen: x.UpdatedAt.UTC(), Expires: x.Expires.UTC(), Current: x.Token == current})
	}
	if !httpx.AcceptsHTML(r) {
		httpx.WriteJSON(w, http.StatusOK, out)
		return
	}
	page := pages.Sessions{Theme: s.cfg.Theme, CSRFToken: s.host.CSRFToken(w, r), HomeURL: s.host.Origin(r) + "/",
		RevokeURL: s.host.URL(r, "sessions", "revoke"), RevokeOthersURL: s.host.URL(r, "sessions", "revoke-others"),
		RevokeAllURL: s.host.URL(r, "sessions", "revoke-all")}
	slices.SortStableFunc(out, func(x, y listed) int {
		switch {
		case x.Current == y.Current:
			return 0
		case x.Current:
			return -1
		}
		return 1
	})
	const day = "2006-01-02 15:04 UTC"
	shown := func(t time.Time) string {
		if t.IsZero() {
			return "" // a session made before the times were recorded
		}
		return t.Format(day)
	}
	// The page names a provider as the accounts page does, by its display
	// name ("Password", not the id "credentials"); the JSON keeps the id.
	names := map[string]string{}
	for _, p := range s.cfg.Providers {
		names[p.ID] = p.Name
	}
	for _, x := range out {
		provider := x.Provider
		if n := names[provider]; n != "" {
			provider = n
		}
		page.Sessions = append(page.Sessions, pages.SessionRow{ID: x.ID, Provider: provider, Device: s.deviceText(r, x.Device),
			Created: shown(x.Created), LastSeen: shown(x.LastSeen), Expires: x.Expires.Format(day), Current: x.Current})
	}
	s.host.Render(w, r, http.StatusOK, page)
}

// Revoke answers POST {base}/sessions/revoke {csrfToken, id} (one
// session; this browser's signs it out), POST
// {base}/sessions/revoke-others {csrfToken} (every session but this
// browser's) and POST {base}/sessions/revoke-all {csrfToken} (every
// session, this browser's too: "sign out everywhere").
func (s *Routes) Revoke(w http.ResponseWriter, r *http.Request) {
	form, ok := s.post(w, r)
	if !ok {
		return
	}
	userID, list, current, ok := s.userSessions(w, r)
	if !ok {
		return
	}
	others := strings.HasSuffix(r.URL.Path, "/revoke-others")
	all := strings.HasSuffix(r.URL.Path, "/revoke-all")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	n, signedOut, err := sessions.End(ctx, s.cfg.Adapter, list, func(x adapter.Session) bool {
		switch {
		case all:
			return true
		case others:
			return x.Token != current
		}
		return sessionID(x.Token) == form.Get("id")
	}, current)
	if err != nil {
		s.cfg.Logger.Error("gatehouse: revoking a session failed", "step", "sessions", "err", err)
		httpx.StoreUnavailable(w)
		return
	}
	if !others && !all && n == 0 {
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": string(autherr.SessionRequired), "code": "no_such_session"})
		return
	}
	if signedOut {
		s.host.SignOutHere(w, r)
	}
	s.cfg.Logger.Info("gatehouse: sessions revoked", "step", "sessions", "user", userID, "sessions", n)
	if ev := s.cfg.Events.RevokeSessions; ev != nil && n > 0 {
		if u, ok := s.user(ctx, userID); ok {
			ev(r.Context(), u, n)
		}
	}
	if httpx.AcceptsHTML(r) && !signedOut {
		s.host.Redirect(w, r, s.host.URL(r, "sessions")) // back to the page (303)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]int{"revoked": n})
}

// deviceText is a stored device description (useragent.Describe: "Firefox
// on Linux", "A browser on Linux", "Unknown browser") in the language of
// r's pages; any other text as it is.
func (s *Routes) deviceText(r *http.Request, d string) string {
	switch b, sys, ok := strings.Cut(d, " on "); {
	case d == "Unknown browser":
		return s.host.Text(r, "device.unknown")
	case ok && b == "A browser":
		return s.host.Text(r, "device.someOn", sys)
	case ok:
		return s.host.Text(r, "device.on", b, sys)
	}
	return d
}
