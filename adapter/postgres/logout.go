package postgres

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var _ adapter.SessionRevoker = (*Adapter)(nil)

// DeleteUserSessions removes every session of the user userID.
func (a *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, dbError("delete user sessions", err)
	}
	return int(tag.RowsAffected()), nil
}
