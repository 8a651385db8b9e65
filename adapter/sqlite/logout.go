package sqlite

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var _ adapter.SessionRevoker = (*Adapter)(nil)

// DeleteUserSessions removes every session of the user userID.
func (a *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = ?`, userID)
	if err != nil {
		return 0, dbError("delete user sessions", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, dbError("delete user sessions", err)
	}
	return int(n), nil
}
