package sessions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/session"
)

// A ban (package admin) must end a user's sessions on every instance at
// their next request. A database session is deleted by the ban itself;
// what no row backs, a JWT session and the cookie cache's copy of a
// database session, is checked here against the user's admin.Status in
// the shared store: one indexed read per such session read, and only
// with Config.Admin set.

// Admit returns a Banned error when user userID may not sign in now: the
// hook of every sign-in (internal/finish's Finisher calls it before the
// second factor, Issue again before it makes the session). Nil without
// Config.Admin.
func (m *Manager) Admit(ctx context.Context, userID, provider string) error {
	return m.admit(ctx, userID, provider, time.Time{})
}

// admit is Admit; with began not zero, it also refuses a sign-in that
// began (its first factor) before the user's sessions were revoked
// (admin.Status.Refuses): a revocation ends the sign-ins under way as
// well as the sessions, or a sign-in waiting for its second factor would
// outlive a revocation (or a new password) stored meanwhile.
func (m *Manager) admit(ctx context.Context, userID, provider string, began time.Time) error {
	if m.cfg.Admin == nil {
		return nil
	}
	st, err := m.cfg.Admin.UserStatus(ctx, userID)
	if err != nil && !errors.Is(err, adapter.ErrNotFound) {
		return autherr.New(autherr.AdapterError, "adapter", provider, "ban", err)
	}
	now := time.Now()
	if b := st.Ban; b.Active(now) {
		return autherr.New(autherr.Banned, "banned", provider, "ban", b.Refusal(userID))
	}
	if !began.IsZero() && st.Refuses(began, now) {
		return autherr.New(autherr.AccessDenied, "revoked", provider, "session",
			fmt.Errorf("the sessions of user %q were ended while this sign-in was in progress: the user must sign in again", userID))
	}
	return nil
}

// signedInAt is when the session of t began: to the microsecond when the
// token says (written with Config.Admin), else to the second.
func signedInAt(t session.Token) time.Time {
	if t.AuthTimeMicro != 0 {
		return time.UnixMicro(t.AuthTimeMicro)
	}
	return time.Unix(t.AuthTime, 0)
}

// refuses reports whether the session of userID that began at signedIn
// must be refused at now (admin.Status.Refuses): also when the user no
// longer exists. A store that cannot be read is an error wrapping
// ErrStoreUnavailable: whether the user is banned is then unknown.
func (m *Manager) refuses(ctx context.Context, userID string, signedIn, now time.Time) (bool, error) {
	if m.cfg.Admin == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	st, err := m.cfg.Admin.UserStatus(ctx, userID)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		return true, nil // a deleted user
	case err != nil:
		return false, fmt.Errorf("%w: %w", ErrStoreUnavailable, err)
	}
	return st.Refuses(signedIn, now), nil
}
