package postgres

import (
	"context"
	"hash/fnv"

	"github.com/jackc/pgx/v5"
)

// LockAccount runs fn holding the account's lock (adapter.AccountLocker)
// for every process using the database: a session-level advisory lock
// (pg_advisory_lock) keyed by the schema and the account, on a connection
// of its own made with the pool's configuration and closed afterwards.
// That connection is not the pool's: holders (and waiters) that took the
// pool's connections would leave fn's own queries, which use the pool,
// waiting for one for ever. An advisory lock blocks only other takers of
// the same lock, never rows.
func (a *Adapter) LockAccount(ctx context.Context, provider, providerAccountID string, fn func(ctx context.Context) error) error {
	conn, err := a.connect(ctx)
	if err != nil {
		return dialect.Error("lock account", err)
	}
	// Closing the session frees its locks, also when waiting was cancelled.
	defer conn.Close(context.WithoutCancel(ctx))
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return dialect.Error("lock account", err)
	}
	h := fnv.New64a()
	h.Write([]byte("gatehouse account\x00" + schema + "\x00" + provider + "\x00" + providerAccountID))
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(h.Sum64())); err != nil {
		return dialect.Error("lock account", err)
	}
	return fn(ctx)
}

// connect makes a connection outside the pool as the pool makes its own,
// with its BeforeConnect and AfterConnect hooks (which may set a password
// or the search_path).
func (a *Adapter) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg := a.pool.Config()
	if cfg.BeforeConnect != nil {
		if err := cfg.BeforeConnect(ctx, cfg.ConnConfig); err != nil {
			return nil, err
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, err
	}
	if cfg.AfterConnect != nil {
		if err := cfg.AfterConnect(ctx, conn); err != nil {
			conn.Close(context.WithoutCancel(ctx))
			return nil, err
		}
	}
	return conn, nil
}
