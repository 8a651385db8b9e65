package memory

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var _ adapter.SessionRevoker = (*Adapter)(nil)

// DeleteUserSessions removes every session of the user userID.
func (m *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for tok, s := range m.sessions {
		if s.UserID == userID {
			delete(m.sessions, tok)
			n++
		}
	}
	return n, nil
}
