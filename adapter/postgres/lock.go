package postgres

import (
	"context"
	"hash/fnv"
)

// LockAccount runs fn holding the account's lock (adapter.AccountLocker)
// for every process using the database: a session-level advisory lock
// (pg_advisory_lock) on a connection of its own, keyed by the schema and
// the account. fn's own queries use other connections of the pool; an
// advisory lock blocks only other takers of the same lock, never rows.
func (a *Adapter) LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error {
	conn, err := a.pool.Acquire(ctx)
	if err != nil {
		return dbError("lock account", err)
	}
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		conn.Release()
		return dbError("lock account", err)
	}
	h := fnv.New64a()
	h.Write([]byte("gatehouse account\x00" + schema + "\x00" + provider + "\x00" + providerAccountID))
	key := int64(h.Sum64())
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		// Waiting was cancelled: the connection's state is unknown, so it
		// is closed rather than given back holding a lock.
		conn.Conn().Close(context.WithoutCancel(ctx))
		conn.Release()
		return dbError("lock account", err)
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key); err != nil {
			conn.Conn().Close(context.WithoutCancel(ctx)) // closing the session frees its locks
		}
		conn.Release()
	}()
	return fn(ctx)
}
