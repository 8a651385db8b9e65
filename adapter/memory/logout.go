package memory

import (
	"context"
)

// DeleteUserSessions removes every session of the user userID.
func (m *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	return lockedValue(ctx, m, func() (int, error) {
		n := 0
		for tok, s := range m.sessions {
			if s.UserID == userID {
				delete(m.sessions, tok)
				n++
			}
		}
		return n, nil
	})
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (m *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if userID == "" && sid == "" {
		return 0, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for tok, s := range m.sessions {
		if s.Provider == provider && (userID == "" || s.UserID == userID) && (sid == "" || s.SID == sid) {
			delete(m.sessions, tok)
			n++
		}
	}
	return n, nil
}
