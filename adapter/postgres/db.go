package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

// pgxQuerier is what sqlstore.Querier needs of a *pgxpool.Pool or a
// pgx.Tx.
type pgxQuerier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// pgxQueries is a *pgxpool.Pool or pgx.Tx as a sqlstore.Querier.
type pgxQueries struct{ q pgxQuerier }

// Exec implements sqlstore.Querier.
func (p pgxQueries) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := p.q.Exec(ctx, query, args...)
	return tag.RowsAffected(), err
}

// QueryRow implements sqlstore.Querier.
func (p pgxQueries) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return p.q.QueryRow(ctx, query, args...)
}

// Query implements sqlstore.Querier.
func (p pgxQueries) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	return p.q.Query(ctx, query, args...)
}

// pgxDB is a *pgxpool.Pool as a sqlstore.DB.
type pgxDB struct {
	pgxQueries
	pool *pgxpool.Pool
}

// Begin implements sqlstore.DB.
func (p pgxDB) Begin(ctx context.Context) (sqlstore.Tx, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return pgxTx{pgxQueries{tx}, tx}, nil
}

// pgxTx is a pgx.Tx as a sqlstore.Tx.
type pgxTx struct {
	pgxQueries
	tx pgx.Tx
}

// Commit implements sqlstore.Tx.
func (t pgxTx) Commit(ctx context.Context) error { return t.tx.Commit(ctx) }

// Rollback implements sqlstore.Tx.
func (t pgxTx) Rollback(ctx context.Context) error { return t.tx.Rollback(ctx) }
