package sqlstore

import (
	"context"
	"database/sql"
)

// Querier runs statements: a connection pool, a connection or a
// transaction. The statements of this package are written with
// PostgreSQL's numbered placeholders $1, $2, ..., which pgx and
// modernc.org/sqlite both bind by number.
type Querier interface {
	// Exec runs query and returns the number of rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	// QueryRow runs query, returning its first row.
	QueryRow(ctx context.Context, query string, args ...any) Row
	// Query runs query, returning its rows; the caller closes them.
	Query(ctx context.Context, query string, args ...any) (Rows, error)
}

// DB is a connection pool that begins transactions.
type DB interface {
	Querier
	Begin(ctx context.Context) (Tx, error)
}

// Tx is a transaction begun by DB.Begin.
type Tx interface {
	Querier
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// sqlQuerier is what Querier needs of a *sql.DB, *sql.Tx or *sql.Conn.
type sqlQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// SQL returns q, a *sql.Tx or *sql.Conn of database/sql, as a Querier.
func SQL(q sqlQuerier) Querier {
	return sqlQueries{q}
}

// SQLDB returns db, a database of database/sql, as a DB.
func SQLDB(db *sql.DB) DB {
	return sqlDB{sqlQueries{db}, db}
}

// sqlQueries is a Querier on a *sql.DB, *sql.Tx or *sql.Conn.
type sqlQueries struct{ q sqlQuerier }

// Exec implements Querier.
func (s sqlQueries) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := s.q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// QueryRow implements Querier.
func (s sqlQueries) QueryRow(ctx context.Context, query string, args ...any) Row {
	return s.q.QueryRowContext(ctx, query, args...)
}

// Query implements Querier.
func (s sqlQueries) Query(ctx context.Context, query string, args ...any) (Rows, error) {
	rows, err := s.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

// sqlRows is a *sql.Rows as Rows: Close reports no error, which Err
// reports.
type sqlRows struct{ *sql.Rows }

// Close implements Rows.
func (r sqlRows) Close() { r.Rows.Close() }

// sqlDB is a DB on a *sql.DB.
type sqlDB struct {
	sqlQueries
	db *sql.DB
}

// Begin implements DB, with the database's default transaction options.
func (s sqlDB) Begin(ctx context.Context) (Tx, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return sqlTx{sqlQueries{tx}, tx}, nil
}

// sqlTx is a Tx on a *sql.Tx.
type sqlTx struct {
	sqlQueries
	tx *sql.Tx
}

// Commit implements Tx.
func (t sqlTx) Commit(context.Context) error { return t.tx.Commit() }

// Rollback implements Tx.
func (t sqlTx) Rollback(context.Context) error { return t.tx.Rollback() }
