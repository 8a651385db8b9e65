package sessions

import (
	"context"
	"errors"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// End deletes the sessions of list that ends picks, and reports how many
// it deleted (one already gone is not counted) and whether current (this
// browser's session hash) was among them.
func End(ctx context.Context, a adapter.Adapter, list []adapter.Session, ends func(adapter.Session) bool, current string) (n int, signedOut bool, err error) {
	for _, x := range list {
		if !ends(x) {
			continue
		}
		signedOut = signedOut || x.Token == current
		_, err := a.DeleteSession(ctx, x.Token)
		switch {
		case errors.Is(err, adapter.ErrNotFound):
			// Ended since it was listed (a concurrent revoke, a sign-out):
			// gone, but not ended by this request, so not counted, and
			// not told to Events.RevokeSessions a second time.
			continue
		case err != nil:
			return n, signedOut, err
		}
		n++
	}
	return n, signedOut, nil
}

// EndOthers ends every database session of userID but the one whose
// hash is keep (this browser's), as POST {base}/sessions/revoke-others
// does, and returns how many it ended: after a password change, whoever
// else held a session is signed out. With JWT sessions, or an adapter
// that cannot list, it ends none.
func (m *Manager) EndOthers(ctx context.Context, userID, keep string) (int, error) {
	lister, ok := m.cfg.Adapter.(adapter.SessionLister)
	if !m.cfg.Database || !ok {
		return 0, nil
	}
	list, err := lister.ListSessions(ctx, userID)
	if err != nil {
		return 0, err
	}
	n, _, err := End(ctx, m.cfg.Adapter, list, func(x adapter.Session) bool { return x.Token != keep }, keep)
	return n, err
}
