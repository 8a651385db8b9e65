package postgres

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
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
	rows, err := a.pool.Query(ctx, `SELECT `+sqlstore.SessionColumns+` FROM gatehouse_sessions
		WHERE user_id = $1 ORDER BY expires DESC, token`, userID)
	if err != nil {
		return nil, dialect.Error("list sessions", err)
	}
	defer rows.Close()
	return sqlstore.ScanAll(dialect, rows, "list sessions", func(r sqlstore.Row) (adapter.Session, error) {
		return dialect.ScanSession(r, "list sessions")
	})
}
