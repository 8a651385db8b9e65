package sqlite

import (
	"context"
	"database/sql"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

var (
	_ adapter.SessionRevoker         = (*Adapter)(nil)
	_ adapter.ProviderSessionRevoker = (*Adapter)(nil)
)

// DeleteUserSessions removes every session of the user userID.
func (a *Adapter) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_sessions WHERE user_id = ?`, userID)
	return rowsAffected(res, err, "delete user sessions")
}

// DeleteProviderSessions removes the sessions of provider with the given
// sid and/or user (adapter.ProviderSessionRevoker).
func (a *Adapter) DeleteProviderSessions(ctx context.Context, provider, userID, sid string) (int, error) {
	if userID == "" && sid == "" {
		return 0, nil
	}
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_sessions
		WHERE provider = ? AND (? = '' OR user_id = ?) AND (? = '' OR sid = ?)`, provider, userID, userID, sid, sid)
	return rowsAffected(res, err, "delete provider sessions")
}

// rowsAffected returns the number of rows the statement that returned res
// and err changed.
func rowsAffected(res sql.Result, err error, what string) (int, error) {
	if err != nil {
		return 0, dialect.Error(what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, dialect.Error(what, err)
	}
	return int(n), nil
}

// ListSessions returns the user's sessions, latest expiry first
// (adapter.SessionLister).
func (a *Adapter) ListSessions(ctx context.Context, userID string) ([]adapter.Session, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+sqlstore.SessionColumns+` FROM gatehouse_sessions
		WHERE user_id = ? ORDER BY expires DESC, token`, userID)
	if err != nil {
		return nil, dialect.Error("list sessions", err)
	}
	defer rows.Close()
	return sqlstore.ScanAll(dialect, rows, "list sessions", func(r sqlstore.Row) (adapter.Session, error) {
		return dialect.ScanSession(r, "list sessions")
	})
}
