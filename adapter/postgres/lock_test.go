package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// TestLockAccountFullPool: as many accounts locked at once as the pool
// has connections, and every holder still reads the store (as a refresh
// does: GetAccount, UpdateAccount). A lock held on a pooled connection
// would leave the holders' own queries waiting for a connection for ever.
func TestLockAccountFullPool(t *testing.T) {
	requireServer(t)
	schema := newSchema(t)
	cfg, err := pgxpool.ParseConfig(testDSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	const n = 2
	cfg.MaxConns = n
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	a := New(pool)
	if err := a.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}

	// The bound only ends the test if the holders are stuck.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var all, wg sync.WaitGroup
	all.Add(n)
	for i := range n {
		wg.Go(func() {
			err := a.LockAccount(ctx, "lockprov", string(rune('a'+i)), func(ctx context.Context) error {
				all.Done()
				all.Wait() // every account is locked now
				_, err := a.GetAccount(ctx, "lockprov", "nobody")
				if !errors.Is(err, adapter.ErrNotFound) {
					return err
				}
				return nil
			})
			if err != nil {
				t.Errorf("holder %d: %v", i, err)
			}
		})
	}
	wg.Wait()
}
