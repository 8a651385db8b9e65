package sqlite

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// lockLease bounds how long a lock outlives a process that died holding
// it; a refresh (the lock's user) is bounded well below it.
const lockLease = 2 * time.Minute

// LockAccount runs fn holding the account's lock (adapter.AccountLocker)
// for every process using the database file: a row in gatehouse_locks,
// inserted (the primary key lets one process in) and deleted afterwards.
// A waiting process polls; an expired row (its holder died) is taken over.
func (a *Adapter) LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error {
	key := "account\x00" + provider + "\x00" + providerAccountID
	owner := rand.Text() // so that a holder past its lease never frees the next holder's lock
	for {
		now := time.Now()
		if _, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_locks WHERE key = ? AND expires < ?`, key, now.UnixMilli()); err != nil {
			return dialect.Error("lock account", err)
		}
		_, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_locks (key, owner, expires) VALUES (?, ?, ?)`, key, owner, now.Add(lockLease).UnixMilli())
		if err == nil {
			break
		}
		if err = dialect.Error("lock account", err); !errors.Is(err, adapter.ErrConflict) {
			return err
		}
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// A release that fails leaves the row until its lease ends: the lock
	// is then only held longer, never given to two holders.
	defer a.db.ExecContext(context.WithoutCancel(ctx), `DELETE FROM gatehouse_locks WHERE key = ? AND owner = ?`, key, owner)
	return fn(ctx)
}
