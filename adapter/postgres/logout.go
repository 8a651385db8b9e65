package postgres

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
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, dialect.Error("delete user sessions", err)
	}
	return int(tag.RowsAffected()), nil
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (a *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if userID == "" && sid == "" {
		return 0, nil
	}
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_sessions
		WHERE provider = $1 AND ($2 = '' OR user_id = $2) AND ($3 = '' OR sid = $3)`, provider, userID, sid)
	if err != nil {
		return 0, dialect.Error("delete provider sessions", err)
	}
	return int(tag.RowsAffected()), nil
}

// ListSessions returns the user's sessions, latest expiry first
// (adapter.SessionLister).
func (a *Adapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	rows, err := a.pool.Query(ctx, `SELECT token, user_id, expires, provider, sid FROM gatehouse_sessions
		WHERE user_id = $1 ORDER BY expires DESC, token`, userID)
	if err != nil {
		return nil, dialect.Error("list sessions", err)
	}
	defer rows.Close()
	list := []adapter.Session{}
	for rows.Next() {
		var s adapter.Session
		if err := rows.Scan(&s.Token, &s.UserID, &s.Expires, &s.Provider, &s.SID); err != nil {
			return nil, dialect.Error("list sessions", err)
		}
		list = append(list, s)
	}
	if err := rows.Err(); err != nil {
		return nil, dialect.Error("list sessions", err)
	}
	return list, nil
}
