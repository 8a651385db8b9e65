// Package backchannel receives OpenID Connect Back-Channel Logout 1.0
// requests: the provider tells the relying party, by a signed logout
// token, that a user signed out there, and the database sessions it names
// are deleted.
package backchannel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
)

// Receiver answers POST {base}/backchannel-logout/{provider}.
type Receiver struct {
	// Adapter stores the sessions; nil when sessions are not in a
	// database (the JWT strategy), which is answered 501.
	Adapter adapter.Adapter
	// Provider returns the OAuth/OIDC provider of an id.
	Provider func(id string) (*rp.Provider, bool)
	// Logger receives every logout and every refusal.
	Logger *slog.Logger
}

// ServeHTTP verifies the logout_token like an ID token (§2.6), then ends
// sessions (§2.7): with an adapter that records each session's provider
// and sid (adapter.ProviderSessionRevoker), a token with a sid ends the
// sessions of that provider session only, and one with only a sub ends
// that user's sessions from this provider (§2.4), a token with a sub
// ending also the user's sessions that recorded no provider (created
// before the upgrade that added the record); with an
// adapter.SessionRevoker only, a sub ends every session of the user, and
// a sid alone is refused. It answers 200 on success, 400 for a token
// that fails verification, 501 when sessions cannot be ended from here
// (JWT strategy, or an adapter with neither interface).
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	id := r.PathValue("provider")
	p, ok := rc.Provider(id)
	if !ok {
		http.Error(w, "unknown provider", http.StatusBadRequest)
		return
	}
	scoped, byProvider := rc.Adapter.(adapter.ProviderSessionRevoker)
	revoker, byUser := rc.Adapter.(adapter.SessionRevoker)
	if !byProvider && !byUser {
		http.Error(w, "back-channel logout needs the database session strategy and an adapter.ProviderSessionRevoker", http.StatusNotImplemented)
		return
	}
	form, err := httpx.ReadForm(r)
	raw := form.Get("logout_token")
	if err != nil || raw == "" {
		rc.fail(w, id, http.StatusBadRequest, "request", errors.New("no logout_token"))
		return
	}
	ctx := r.Context()
	e, err := p.Endpoints(ctx)
	if err != nil || !e.VerifiesTokens() {
		rc.fail(w, id, http.StatusServiceUnavailable, "discovery", fmt.Errorf("provider keys unavailable: %v", err))
		return
	}
	claims, err := p.VerifyLogoutToken(ctx, e, raw, time.Now())
	if err != nil {
		rc.fail(w, id, http.StatusBadRequest, "logout_token", err)
		return
	}
	sub, sid := claims.String("sub"), claims.String("sid")
	if !byProvider && sub == "" {
		rc.fail(w, id, http.StatusBadRequest, "logout_token", errors.New("logout tokens with only a sid need an adapter.ProviderSessionRevoker"))
		return
	}
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	userID := ""
	if sub != "" {
		u, err := rc.Adapter.GetUserByAccount(ctx, id, sub)
		switch {
		case errors.Is(err, adapter.ErrNotFound):
			w.WriteHeader(http.StatusOK) // nobody to sign out
			return
		case err != nil:
			rc.fail(w, id, http.StatusServiceUnavailable, "adapter", err)
			return
		}
		userID = u.ID
	}
	var n int
	if byProvider {
		n, err = scoped.DeleteProviderSessions(ctx, id, userID, sid)
		if err == nil && userID != "" {
			// Sessions created before the adapter recorded provider and
			// sid (the migrations' default "") cannot be told apart:
			// they end with their user, as they did before (fail closed).
			var legacy int
			legacy, err = scoped.DeleteProviderSessions(ctx, "", userID, "")
			n += legacy
		}
	} else {
		n, err = revoker.DeleteUserSessions(ctx, userID)
	}
	if err != nil {
		rc.fail(w, id, http.StatusServiceUnavailable, "adapter", err)
		return
	}
	rc.Logger.Info("gatehouse: back-channel logout", "provider", id, "user", userID, "by_sid", sid != "", "sessions", n)
	w.WriteHeader(http.StatusOK)
}

// fail logs the refusal and answers the error of §2.8 without its reason.
func (rc *Receiver) fail(w http.ResponseWriter, provider string, status int, step string, err error) {
	rc.Logger.Error("gatehouse: back-channel logout refused", "provider", provider, "step", step, "err", err)
	httpx.WriteJSON(w, status, map[string]string{"error": "invalid_request"})
}
