package sqlite

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

var (
	_ adapter.SessionRevoker         = (*Adapter)(nil)
	_ adapter.ProviderSessionRevoker = (*Adapter)(nil)
)

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

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (a *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if userID == "" && sid == "" {
		return 0, nil
	}
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_sessions
		WHERE provider = ? AND (? = '' OR user_id = ?) AND (? = '' OR sid = ?)`, provider, userID, userID, sid, sid)
	if err != nil {
		return 0, dbError("delete provider sessions", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, dbError("delete provider sessions", err)
	}
	return int(n), nil
}
